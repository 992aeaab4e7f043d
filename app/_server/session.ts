import 'server-only';
import { encode } from 'next-auth/jwt';
import { cookies } from 'next/headers';
import { SESSION_MAX_AGE_SECONDS } from '@/lib/auth/auth-options';

const SESSION_COOKIE = 'next-auth.session-token';

/**
 * Gives this browser a session for `user` at its current session generation — what next-auth's
 * sign-in makes (the same claims, secret, lifetime and cookie): after the account's own password
 * change, which ends every session, this one included, and after an invited account chose its first
 * password. Secure cookies exactly when next-auth uses them (NEXTAUTH_URL is https, or a secure
 * session cookie is what this browser has).
 */
export async function issueSession(user: { id: string; email: string; name: string; sessionGeneration: number }) {
  const jar = await cookies();
  const secure = (process.env.NEXTAUTH_URL ?? '').startsWith('https://') || jar.has(`__Secure-${SESSION_COOKIE}`);
  const token = await encode({
    token: { uid: user.id, gen: user.sessionGeneration, sub: user.id, email: user.email, name: user.name || null },
    secret: process.env.NEXTAUTH_SECRET!,
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
  jar.set(`${secure ? '__Secure-' : ''}${SESSION_COOKIE}`, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}
