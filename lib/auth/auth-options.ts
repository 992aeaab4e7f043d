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

/** next-auth configuration: email + password, JWT sessions that carry only the user id. */
export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: 'jwt', maxAge: 12 * 60 * 60 },
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
        return result.ok ? { id: result.user.id, email: result.user.email, name: result.user.name } : null;
      },
    }),
  ],
  callbacks: {
    // Only a safe path on this origin: the same check as every other return path (safe-path.ts).
    redirect({ url, baseUrl }) {
      return safeRedirectUrl(url, baseUrl, '/desk');
    },
    jwt({ token, user }) {
      if (user) token.uid = user.id;
      return token;
    },
    session({ session, token }) {
      return { ...session, userId: typeof token.uid === 'string' ? token.uid : undefined };
    },
  },
};
