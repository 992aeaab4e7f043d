/** The processes the launcher (and the chaos and bench harness) starts. */
export type ChildKind = 'web' | 'worker' | 'simulator' | 'mailcatcher' | 'stripestandin';

/** What the launcher decided for this run; each child gets only its part of it. */
export type ChildSettings = {
  /** The login role (app_login), which owns nothing: web and worker. */
  appDatabaseUrl: string;
  /** The queue role (app_queue), graphile-worker's schema only: workers only. */
  queueDatabaseUrl: string;
  appUrl: string;
  nextauthUrl: string;
  nextauthSecret: string;
  appDataKey: string;
  appDataKeyVersion: string;
  lockProvider: string;
  lockProviderUrl: string;
  lockProviderClientId?: string;
  lockProviderClientSecret?: string;
  /** The TTLock account that owns the locks (its password goes to TTLock as an MD5, never in clear). */
  lockProviderUsername?: string;
  lockProviderPassword?: string;
  simulatorPort: number;
  simulatorClientId: string;
  simulatorClientSecret: string;
  simulatorUsername: string;
  simulatorPassword: string;
  /** The local mail catcher the launcher runs when the operator gave no SMTP_URL: its port and login. */
  mailCatcher?: { port: number; user: string; password: string };
  /**
   * The local Stripe stand-in the launcher runs when the operator gave no STRIPE_SECRET_KEY: its port,
   * the app's webhook route it delivers to, the webhook signing secret, and the only API key it takes
   * (web and workers are given it), both new on every start.
   */
  stripeStandin?: { port: number; webhookUrl: string; webhookSecret: string; apiKey: string };
};

/** Where the launcher's Stripe stand-in answers (loopback only). */
export function stripeStandinUrl(standin: { port: number }): string {
  return `http://127.0.0.1:${standin.port}`;
}

/**
 * A variable that carries a credential — by its name, or by its value (a URL with a password, such
 * as a database URL under any name): no child inherits one from the launcher's own environment
 * unless it is on that child's list below.
 */
export function isCredentialVariable(name: string, value = ''): boolean {
  return (
    /(^|_)(SECRETS?|PASSWORDS?|PASSWD|TOKENS?|KEYS?|CREDENTIALS?|PRIVATE|AUTH)(_|$)/i.test(name) ||
    /token$/i.test(name) ||
    /DATABASE_URL/i.test(name) ||
    /^(PGPASSWORD|PGPASSFILE|SMTP_URL)$/i.test(name) ||
    /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@/i.test(value)
  );
}

/** Credentials from the operator's environment that a child may receive as they are, when set. */
const PASSED_ON: Record<ChildKind, readonly string[]> = {
  // Decrypting rows on an older data key; guest links; Stripe (payment intents, webhook signatures);
  // the operator's leave for tenant-given addresses to be private (not a credential, but named like one).
  web: ['APP_DATA_KEYS', 'GUEST_LINK_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'ALLOW_PRIVATE_FETCH'],
  // Decrypting rows on an older data key; guest links in the messages it sends; sending them; Stripe (a payment
  // that arrived after its hold was released is refunded while the event is processed; a released hold's
  // Checkout Session is expired).
  worker: ['APP_DATA_KEYS', 'GUEST_LINK_SECRET', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'ALLOW_PRIVATE_FETCH'],
  simulator: [],
  mailcatcher: [],
  stripestandin: [],
};

/**
 * The environment of `next build`: the launcher's configuration minus every credential (the build needs none: no
 * page reads the database or a secret while it is built), in production mode, without Next.js's telemetry.
 */
export function buildEnv(inherited: Record<string, string | undefined> = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };
  for (const [name, value] of Object.entries(inherited)) {
    if (name in env || value === undefined || isCredentialVariable(name, value)) continue;
    env[name] = value;
  }
  return env;
}

/**
 * The environment of one child process: the launcher's configuration minus every credential, plus
 * exactly the credentials that child needs. Web processes get the login role's URL, never the
 * owner's nor the queue's, and the lock provider's client credentials (a manager's re-sync and import
 * on the Locks page ask the provider while the page waits; a tenant's own Seam or TTLock credentials
 * are provider secrets, which web decrypts already); workers get the login role's and the queue
 * role's URLs and the lock provider's client credentials; the simulator and the Stripe stand-in get
 * no database credential and no application secret.
 */
export function childEnv(
  kind: ChildKind,
  settings: ChildSettings,
  inherited: Record<string, string | undefined> = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'production' };
  for (const [name, value] of Object.entries(inherited)) {
    if (name === 'NODE_ENV' || value === undefined) continue;
    if (!isCredentialVariable(name, value) || PASSED_ON[kind].includes(name)) env[name] = value;
  }
  if (kind === 'simulator') {
    return {
      ...env,
      SIMULATOR_PORT: String(settings.simulatorPort),
      SIMULATOR_CLIENT_ID: settings.simulatorClientId,
      SIMULATOR_CLIENT_SECRET: settings.simulatorClientSecret,
      SIMULATOR_USERNAME: settings.simulatorUsername,
      SIMULATOR_PASSWORD: settings.simulatorPassword,
    };
  }
  if (kind === 'mailcatcher') {
    // It files caught mail in the database (as the login role) and needs nothing else.
    const catcher = settings.mailCatcher;
    return {
      ...env,
      APP_DATABASE_URL: settings.appDatabaseUrl,
      ...(catcher
        ? {
            MAIL_CATCHER_PORT: String(catcher.port),
            MAIL_CATCHER_USER: catcher.user,
            MAIL_CATCHER_PASSWORD: catcher.password,
          }
        : {}),
    };
  }
  if (kind === 'stripestandin') {
    // It keeps its sessions in memory and needs no database and no application secret: only the key
    // it takes from web and workers, and the secret it signs its webhooks with.
    const standin = settings.stripeStandin;
    return {
      ...env,
      ...(standin
        ? {
            STRIPE_STANDIN_PORT: String(standin.port),
            STRIPE_STANDIN_WEBHOOK_URL: standin.webhookUrl,
            STRIPE_STANDIN_WEBHOOK_SECRET: standin.webhookSecret,
            STRIPE_STANDIN_API_KEY: standin.apiKey,
          }
        : {}),
    };
  }
  Object.assign(env, {
    APP_DATABASE_URL: settings.appDatabaseUrl,
    APP_URL: settings.appUrl,
    NEXTAUTH_SECRET: settings.nextauthSecret,
    APP_DATA_KEY: settings.appDataKey,
    APP_DATA_KEY_VERSION: settings.appDataKeyVersion,
  });
  const lockProvider = {
    LOCK_VENDOR: settings.lockProvider,
    LOCK_VENDOR_URL: settings.lockProviderUrl,
    ...(settings.lockProviderClientId ? { LOCK_VENDOR_CLIENT_ID: settings.lockProviderClientId } : {}),
    ...(settings.lockProviderClientSecret ? { LOCK_VENDOR_CLIENT_SECRET: settings.lockProviderClientSecret } : {}),
    ...(settings.lockProviderUsername ? { LOCK_VENDOR_USERNAME: settings.lockProviderUsername } : {}),
    ...(settings.lockProviderPassword ? { LOCK_VENDOR_PASSWORD: settings.lockProviderPassword } : {}),
  };
  // Without an operator's STRIPE_SECRET_KEY, web and workers talk to the launcher's Stripe stand-in
  // (through the stripe SDK, pointed at it) and accept its signed webhooks.
  const standin = settings.stripeStandin;
  const standinUrl = standin ? stripeStandinUrl(standin) : null;
  const stripe = standin
    ? {
        STRIPE_SECRET_KEY: standin.apiKey,
        STRIPE_API_URL: standinUrl!,
        STRIPE_WEBHOOK_SECRET: standin.webhookSecret,
        STRIPE_STANDIN_URL: standinUrl!,
      }
    : {};
  if (kind === 'web') return { ...env, ...lockProvider, ...stripe, NEXTAUTH_URL: settings.nextauthUrl };
  // Without an operator's SMTP_URL, workers send to the launcher's own mail catcher.
  const catcher = settings.mailCatcher;
  const smtp = catcher
    ? {
        SMTP_URL: `smtp://${encodeURIComponent(catcher.user)}:${encodeURIComponent(catcher.password)}@127.0.0.1:${catcher.port}`,
      }
    : {};
  return { ...env, ...lockProvider, ...smtp, ...stripe, QUEUE_DATABASE_URL: settings.queueDatabaseUrl };
}
