// The signed-in admin: name and role, shared with every screen through a Preact context.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** The roles of admin keys, weakest first. */
export type Role = 'viewer' | 'admin' | 'super_admin';

/** Who is signed in, and what the role allows. */
export interface Session {
  name: string;
  role: Role;
  /** admin and super_admin may change things; a viewer only reads. */
  canWrite: boolean;
  /** Only super_admin sees and changes route policies. */
  isSuperAdmin: boolean;
}

/** Builds a session from `GET /v1/admin/whoami`. */
export function sessionOf(who: { name: string; role: Role }): Session {
  return { ...who, canWrite: who.role !== 'viewer', isSuperAdmin: who.role === 'super_admin' };
}

export const SessionContext = createContext<Session>(sessionOf({ name: '', role: 'viewer' }));

/** The signed-in session. */
export const useSession = (): Session => useContext(SessionContext);
