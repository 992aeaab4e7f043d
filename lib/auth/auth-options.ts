import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { z } from 'zod';
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
        const headers = (request?.headers ?? {}) as Record<string, string | string[] | undefined>;
        const forwarded = headers['x-forwarded-for'];
        const address = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() ?? 'unknown';
        const result = await signInWithPassword({ ...parsed.data, address });
        return result.ok ? { id: result.user.id, email: result.user.email, name: result.user.name } : null;
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.uid = user.id;
      return token;
    },
    session({ session, token }) {
      return { ...session, userId: typeof token.uid === 'string' ? token.uid : undefined };
    },
  },
};
