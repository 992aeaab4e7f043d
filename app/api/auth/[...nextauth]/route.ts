import NextAuth from 'next-auth';
import { methodsNotAllowed } from '@/lib/api/http';
import { authOptions } from '@/lib/auth/auth-options';

const handler = NextAuth(authOptions);
export { handler as GET, handler as POST };

// Other methods get their 405 here and OPTIONS its Allow, with a request id (Next.js's own 405 has neither).
export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET', 'POST']);
