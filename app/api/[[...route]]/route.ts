import { handle } from 'hono/vercel';
import { apiRouter } from '@/lib/api/router';

// Machine traffic below /api — /api/v1, /api/webhooks, /api/guest — is one Hono router
// (lib/api/router.ts, decision 023), mounted here with Hono's documented Next.js adapter. The
// routes beside this one (/api/auth, /api/health, /api/ping) are more specific and stay Next.js
// routes; any other address below /api reaches the router, which answers it with a JSON 404.
const handler = handle(apiRouter);
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
export { handler as HEAD, handler as OPTIONS };
