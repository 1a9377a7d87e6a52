// Mounts the gateway into an existing Express app beside the app's own routes, one router at a time.
import express from 'express';
import { createExpressServer, createGateway, errorMiddleware, memoryStorage } from '../src/index.js';

const gateway = createGateway({
  storage: memoryStorage(),
  adminKeys: [{ key: process.env.GATEWAY_ADMIN_KEY ?? 'change-me-admin-key-0123456789', role: 'super_admin' }],
});
await gateway.ready;

const app = express();
app.get('/', (_req, res) => {
  res.send('my existing app');
});
// Mount only the routers you need; `gateway.router` mounts them all.
app.use(gateway.admin);
app.use(errorMiddleware());

const port = Number(process.env.PORT ?? 3000);
// createExpressServer rather than app.listen: requests are born with the app's prototypes (see README "Mounting in an existing app").
const server = createExpressServer(app).listen(port, '127.0.0.1', () => console.log(`app with the gateway admin API on http://127.0.0.1:${port}`));
process.on('SIGTERM', () => {
  server.close();
  void gateway.close();
});
