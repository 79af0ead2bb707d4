import type { AuthProvider } from 'react-admin';
import { hasNonce, session, setNonce } from './api';

interface SessionAnswer {
  user: { id: number; login: string; role: string };
  nonce: string;
}

let user: SessionAnswer['user'] | undefined;

/** Asks the server who the session cookie is, and takes the nonce that goes with it. */
async function refresh(): Promise<SessionAnswer['user']> {
  const { body } = await session<SessionAnswer>();
  setNonce(body.nonce);
  user = body.user;
  return body.user;
}

/**
 * Logs in with the login and the console password (application passwords are refused, as by
 * WordPress's login form); the session lives in an HttpOnly cookie, the nonce in memory only.
 */
export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    const { body } = await session<SessionAnswer>({
      method: 'POST',
      body: JSON.stringify({ login: username, password }),
    });
    setNonce(body.nonce);
    user = body.user;
  },
  async logout() {
    if (hasNonce()) await session({ method: 'DELETE' }).catch(() => undefined);
    setNonce(undefined);
    user = undefined;
  },
  async checkAuth() {
    if (!hasNonce()) await refresh();
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      setNonce(undefined);
      throw error;
    }
  },
  async getIdentity() {
    // No fullName: the user menu stays an icon button named "Profile" (its visible text would
    // otherwise be the login, which its accessible name does not contain).
    const me = user ?? (await refresh());
    return { id: me.id };
  },
  async getPermissions() {
    const me = user ?? (await refresh());
    return me.role;
  },
};
