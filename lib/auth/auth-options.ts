import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { z } from 'zod';
import { clientAddress } from '../http/client-address';
import { safeRedirectUrl } from './safe-path';
import { signInWithPassword } from './sign-in';

const ZCredentialsSchema = z.object({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(1024),
});

/** How long a session lasts (a sign-in's, and one the server re-issues after a password change). */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** What the session hands the application: the user id and the session generation it began with. */
export type SessionClaims = { userId?: string; sessionGeneration?: number };

/**
 * next-auth configuration: email + password, JWT sessions that carry the user id and the account's
 * session generation at sign-in (`gen`); a password change moves the generation, and every request
 * compares it (lib/auth/staff.ts), so the change ends every other session.
 */
export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'Email',
      credentials: { email: { type: 'email' }, password: { type: 'password' } },
      async authorize(credentials, request) {
        const parsed = ZCredentialsSchema.safeParse(credentials);
        if (!parsed.success) return null;
        // The preload's header only: X-Forwarded-For is whatever the client wants it to be.
        const address = clientAddress(request?.headers as Record<string, string | string[] | undefined> | undefined);
        const result = await signInWithPassword({ ...parsed.data, address });
        if (!result.ok) return null;
        const { id, email, name, sessionGeneration } = result.user;
        return { id, email, name, sessionGeneration };
      },
    }),
  ],
  callbacks: {
    // Only a safe path on this origin: the same check as every other return path (safe-path.ts).
    redirect({ url, baseUrl }) {
      return safeRedirectUrl(url, baseUrl, '/desk');
    },
    jwt({ token, user }) {
      if (user) {
        token.uid = user.id;
        token.gen = (user as { sessionGeneration?: number }).sessionGeneration ?? 0;
      }
      return token;
    },
    session({ session, token }): typeof session & SessionClaims {
      return {
        ...session,
        userId: typeof token.uid === 'string' ? token.uid : undefined,
        // A session made before generations existed began with generation 0.
        sessionGeneration: typeof token.gen === 'number' ? token.gen : 0,
      };
    },
  },
};
