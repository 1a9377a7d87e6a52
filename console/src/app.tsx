// The console shell: sign-in with an admin key, the role-following navigation, and the screen chosen by the URL hash.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, forgetKey, storedKey, storeKey } from './api.js';
import { ApplicationsScreen } from './screens/applications.js';
import { ChroniclesScreen } from './screens/chronicles.js';
import { McpScreen } from './screens/mcp-registries.js';
import { PlaygroundScreen } from './screens/playground.js';
import { ProvidersScreen } from './screens/providers.js';
import { RoutesScreen } from './screens/routes.js';
import { TemplatesGatewaysScreen } from './screens/templates-gateways.js';
import { UsageScreen } from './screens/usage.js';
import { SessionContext, sessionOf, type Role, type Session } from './session.js';
import { Notice, TextField } from './ui.js';

const SCREENS = [
  { id: 'providers', title: 'Providers', render: () => <ProvidersScreen /> },
  { id: 'routes', title: 'Routes', render: () => <RoutesScreen /> },
  { id: 'catalog', title: 'Templates & gateways', render: () => <TemplatesGatewaysScreen /> },
  { id: 'applications', title: 'Applications', render: () => <ApplicationsScreen /> },
  { id: 'chronicles', title: 'Chronicles', render: () => <ChroniclesScreen /> },
  { id: 'mcp', title: 'MCP registries', render: () => <McpScreen /> },
  { id: 'usage', title: 'Usage', render: () => <UsageScreen /> },
  { id: 'playground', title: 'Guardrail playground', render: () => <PlaygroundScreen /> },
] as const;

const screenFromHash = (): string => location.hash.replace(/^#\/?/, '').split('/')[0] || 'providers';

function SignIn(props: { onSignedIn: (session: Session) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const who = await api<{ name: string; role: Role }>('GET', 'admin/whoami', { key });
      storeKey(key);
      props.onSignedIn(sessionOf(who));
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 401 ? 'This admin key is not valid.' : (failure as Error).message);
    }
  };
  return (
    <main class="signin">
      <h1>Gateway admin console</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <TextField label="Admin key" type="password" value={key} onInput={setKey} autoComplete="current-password" hint="Sent as x-api-key to the admin API; kept for this tab only." />
        <Notice>{error}</Notice>
        <button type="submit" disabled={key === ''}>
          Sign in
        </button>
      </form>
    </main>
  );
}

/** The whole console. */
export function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [checking, setChecking] = useState(storedKey() !== null);
  const [screen, setScreen] = useState(screenFromHash());

  useEffect(() => {
    const onHash = () => setScreen(screenFromHash());
    window.addEventListener('hashchange', onHash);
    if (storedKey() !== null) {
      api<{ name: string; role: Role }>('GET', 'admin/whoami')
        .then((who) => setSession(sessionOf(who)))
        .catch(() => forgetKey())
        .finally(() => setChecking(false));
    }
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  if (checking) return <p class="loading">Loading…</p>;
  if (!session) return <SignIn onSignedIn={setSession} />;
  const active = SCREENS.find((item) => item.id === screen) ?? SCREENS[0];
  const signOut = () => {
    forgetKey();
    setSession(null);
  };
  return (
    <SessionContext.Provider value={session}>
      <header class="top">
        <span class="brand">Gateway console</span>
        <span class="who" data-role={session.role}>
          Signed in as {session.name} ({session.role}){session.canWrite ? '' : ' — read only'}
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav aria-label="Screens">
        <ul>
          {SCREENS.map((item) => (
            <li key={item.id}>
              <a href={`#/${item.id}`} aria-current={item === active ? 'page' : undefined}>
                {item.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="screen">
        <h1>{active.title}</h1>
        {active.render()}
      </main>
    </SessionContext.Provider>
  );
}
