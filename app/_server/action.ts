import 'server-only';
import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect, unstable_rethrow } from 'next/navigation';
import { z } from 'zod';
import { staffActor, type StaffActor } from '@/lib/audit/actor';
import { can, type Permission } from '@/lib/auth/permissions';
import type { StaffContext, StaffIdentity } from '@/lib/auth/staff';
import { isAppError } from '@/lib/errors';
import type { TranslationVars } from '@/lib/i18n/locale';
import { isMessageKey, type MessageKey } from '@/lib/i18n/catalog';
import { logger } from '@/lib/log/logger';
import { actionErrorMessage, type ActionName } from './action-errors';
import { getT } from '@/i18n/server';
import { getAccount, getStaff, redirectWithoutStaff } from './staff';

import type { ActionError, ActionResult, ActionState, Echo, EchoSpec } from '@/components/ui/action-state';

export type { ActionError, ActionResult, ActionState } from '@/components/ui/action-state';

export type ActionContext<I> = { input: I; staff: StaffContext; tenantId: string; actor: StaffActor };

const REFUSAL = Symbol('refusal');
type Refusal = { [REFUSAL]: true; message: MessageKey; field?: string; vars?: TranslationVars };

/** An expected "no" the body finds only once it can see the tenant's data (a mistyped name, a bad time). */
export function refuse(message: MessageKey, options: { field?: string; vars?: TranslationVars } = {}): Refusal {
  return { [REFUSAL]: true, message, ...options };
}

function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && REFUSAL in value;
}

/** A form field that may be sent any number of times (checkboxes), as a list. */
export function listOf<S extends z.ZodType>(item: S) {
  return z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item));
}

const ECHO_MAX = 1000;

function formObject(input: FormData | Record<string, unknown>): Record<string, unknown> {
  if (!(input instanceof FormData)) return input;
  const object: Record<string, unknown> = {};
  for (const name of new Set(input.keys())) {
    // Text fields, and files for the actions whose schema asks for one (a photo upload).
    const values = input.getAll(name).filter((v) => typeof v === 'string' || (v instanceof Blob && v.size > 0));
    object[name] = values.length === 1 ? values[0] : values;
  }
  return object;
}

function echoOf<E extends EchoSpec>(spec: E | undefined, raw: Record<string, unknown>): Echo<E> {
  const echo: Record<string, string | string[]> = {};
  for (const [name, kind] of Object.entries(spec ?? {})) {
    const value = raw[name];
    const list = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    echo[name] = kind === 'list' ? list.map((v) => v.slice(0, ECHO_MAX)) : (list[0] ?? '').slice(0, ECHO_MAX);
  }
  return echo as Echo<E>;
}

// A schema's message is a message key; its limits fill the key's `{max}` / `{min}`, a refinement's params the rest.
function issueVars(issue: z.core.$ZodIssue): TranslationVars {
  if (issue.code === 'too_big') return { max: Number(issue.maximum) };
  if (issue.code === 'too_small') return { min: Number(issue.minimum) };
  if (issue.code === 'custom') return (issue.params ?? {}) as TranslationVars;
  return {};
}

// Only the error's kind and code and the stack's frames: a message can carry a query's parameters.
function errorSummary(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { errorType: typeof error };
  const code = (error as { code?: unknown }).code;
  return {
    errorType: error.name,
    errorCode: typeof code === 'string' ? code : undefined,
    frames: error.stack?.split('\n').filter((line) => line.trimStart().startsWith('at ')),
  };
}

type ActionOptions<S extends z.ZodType, E extends EchoSpec> = {
  name: ActionName;
  input: S;
  echo?: E;
  /** Refreshed once the body has run (it may have changed what these pages show, even when it failed). */
  revalidate?: { path: string; type?: 'layout' | 'page' };
};

type Action<T, E extends EchoSpec> = (
  previous: ActionState<Exclude<T, Refusal>, E>,
  input: FormData | Record<string, unknown>,
) => Promise<ActionResult<Exclude<T, Refusal>, E>>;

/** Who calls an action, as the wrapper found them: what the body gets, and what the log line names. */
type Caller<C> = { context: C; tenantId?: string; userId?: string; allowed: boolean };

/**
 * The one body of every action wrapper: finds the caller (`identify`: null → `signedOut`, which
 * redirects), refuses one without the right, parses the form with the schema, runs the body and maps
 * refusals and AppErrors to `{ ok: false, error }` with the message of `ACTION_ERROR_MESSAGES`; one
 * log line per call carries the outcome, never the input. Next's redirect() and notFound() pass through.
 */
function defineAction<S extends z.ZodType, T, E extends EchoSpec, C>(
  options: ActionOptions<S, E>,
  identify: () => Promise<Caller<C> | null>,
  signedOut: () => Promise<never>,
  body: (input: z.output<S>, context: C) => Promise<T | Refusal>,
): Action<T, E> {
  return async (previous, input) => {
    const started = Date.now();
    const attempt = (previous?.attempt ?? 0) + 1;
    const caller = await identify();
    const log = (outcome: string, level: 'info' | 'error' = 'info', extra: Record<string, unknown> = {}) =>
      logger[level](
        {
          action: options.name,
          outcome,
          tenantId: caller?.tenantId,
          userId: caller?.userId,
          ms: Date.now() - started,
          ...extra,
        },
        `action ${options.name}: ${outcome}`,
      );
    if (!caller) {
      log('unauthorized');
      return signedOut();
    }
    const t = await getT();
    const raw = formObject(input);
    const values = echoOf(options.echo, raw);
    const fail = (error: Omit<ActionError, 'message'>, key: MessageKey, vars?: TranslationVars) =>
      ({ attempt, ok: false, error: { ...error, message: t(key, vars) }, values }) as const;

    if (!caller.allowed) {
      log('forbidden');
      return fail({ code: 'forbidden' }, actionErrorMessage(options.name, 'forbidden'));
    }

    const parsed = options.input.safeParse(raw);
    if (!parsed.success) {
      const say = (issue: z.core.$ZodIssue) =>
        t(
          isMessageKey(issue.message) ? issue.message : actionErrorMessage(options.name, 'invalid_request'),
          issueVars(issue),
        );
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (typeof field === 'string') fieldErrors[field] ??= say(issue);
      }
      const first = parsed.error.issues[0]!;
      const field = typeof first.path[0] === 'string' ? first.path[0] : undefined;
      log('invalid_request', 'info', { fields: Object.keys(fieldErrors) });
      return {
        attempt,
        ok: false,
        error: { code: 'invalid_request', message: say(first), field, fieldErrors },
        values,
      };
    }

    const refresh = () => options.revalidate && revalidatePath(options.revalidate.path, options.revalidate.type);
    try {
      const result = await body(parsed.data, caller.context);
      if (isRefusal(result)) {
        log('refused', 'info', { field: result.field });
        return fail({ code: 'invalid_request', field: result.field }, result.message, result.vars);
      }
      refresh();
      log('ok');
      return { attempt, ok: true, data: result as Exclude<T, Refusal> };
    } catch (error) {
      if (isAppError(error)) {
        refresh();
        log(error.code);
        const roomIds = Array.isArray(error.details.roomIds)
          ? error.details.roomIds.filter((id): id is string => typeof id === 'string')
          : undefined;
        const providerCode = typeof error.details.providerCode === 'string' ? error.details.providerCode : undefined;
        return fail(
          { code: error.code, ...(roomIds && { roomIds }), ...(providerCode && { providerCode }) },
          actionErrorMessage(options.name, error.code),
        );
      }
      try {
        unstable_rethrow(error);
      } catch (framework) {
        // redirect() or notFound() from the body: Next answers with it; the work is done.
        refresh();
        log('redirect');
        throw framework;
      }
      log('internal', 'error', errorSummary(error));
      return fail({ code: 'internal' }, actionErrorMessage(options.name, 'internal'));
    }
  };
}

/**
 * Wraps one server action, declaring what it needs: a signed-in staff member (else the sign-in
 * page, or "choose your password" first), `permission` in their current tenant (`null`: any staff
 * member), input that `input` accepts (from the form or an object). The body gets the parsed input,
 * the staff member, their tenant (from the session, never the form) and their audit actor.
 */
export function staffAction<S extends z.ZodType, T, E extends EchoSpec = Record<never, never>>(
  options: ActionOptions<S, E> & { permission: Permission | null },
  body: (context: ActionContext<z.output<S>>) => Promise<T | Refusal>,
): Action<T, E> {
  return defineAction(
    options,
    async () => {
      const staff = await getStaff();
      if (!staff) return null;
      const { tenantId } = staff.current;
      return {
        context: { staff, tenantId, actor: staffActor(staff.user) },
        tenantId,
        userId: staff.user.id,
        allowed: !options.permission || can(staff.current.role, options.permission),
      };
    },
    async () => redirectWithoutStaff(await returnAddress()),
    (input, context) => body({ input, ...context }),
  );
}

export type AccountActionContext<I> = { input: I; account: StaffIdentity; actor: StaffActor };

/**
 * An action of the signed-in account itself (its password, its invitations): any account, a member
 * of no tenant yet or one whose one-time password must be replaced; signed out → the sign-in page.
 */
export function accountAction<S extends z.ZodType, T, E extends EchoSpec = Record<never, never>>(
  options: ActionOptions<S, E>,
  body: (context: AccountActionContext<z.output<S>>) => Promise<T | Refusal>,
): Action<T, E> {
  return defineAction(
    options,
    async () => {
      const account = await getAccount();
      if (!account) return null;
      return { context: { account, actor: staffActor(account.user) }, userId: account.user.id, allowed: true };
    },
    async () => redirect(`/sign-in?callbackUrl=${encodeURIComponent(await returnAddress())}`),
    (input, context) => body({ input, ...context }),
  );
}

/**
 * An action anyone may send, signed in or not (asking for a reset link, setting a password from a
 * mailed link): the link or the limits are what guard it.
 */
export function publicAction<S extends z.ZodType, T, E extends EchoSpec = Record<never, never>>(
  options: ActionOptions<S, E>,
  body: (context: { input: z.output<S> }) => Promise<T | Refusal>,
): Action<T, E> {
  return defineAction(
    options,
    async () => ({ context: null, allowed: true }),
    async () => redirect('/'),
    (input) => body({ input }),
  );
}

/**
 * Where a signed-out caller goes back to after signing in: the page the action was sent from (its
 * path only; the sign-in page refuses a return address that leaves the site), else the desk.
 */
async function returnAddress(): Promise<string> {
  try {
    const from = new URL((await headers()).get('referer') ?? '');
    return `${from.pathname}${from.search}`;
  } catch {
    return '/desk';
  }
}
