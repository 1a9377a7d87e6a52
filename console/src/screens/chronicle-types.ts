// The request log entry as GET /v1/admin/applications/:appname/chronicles answers it: the server's own record types (a leaf module, types only).

export type { ChronicleEntry, GuardrailCheck, ToolInvocation } from '../../../src/records/request-records.js';
