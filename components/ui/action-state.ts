import type { AppErrorCode } from '@/lib/errors';

/**
 * What a form's server action answers (the contract of `staffAction` and its siblings in
 * app/_server/action.ts), typed here so the shared form components read it without importing
 * app/_server.
 */

/** Form fields whose typed value comes back on failure so the form keeps it: one value or every value. */
export type EchoSpec = Record<string, 'text' | 'list'>;
export type Echo<E extends EchoSpec> = { [K in keyof E]: E[K] extends 'list' ? string[] : string };

export type ActionError = {
  code: AppErrorCode;
  message: string;
  /** The input field the message is about. */
  field?: string;
  /** Refused input: the first message for each field, in the schema's order. */
  fieldErrors?: Record<string, string>;
  /** `room_unavailable`: the rooms that were taken (nothing was held). */
  roomIds?: string[];
  /** `unavailable` from a lock provider: its failure code (`timeout`, `seam_not_configured`…), for plain words. */
  providerCode?: string;
};

/** `attempt` counts the answers a form has had (a form keyed by it starts afresh with each one). */
export type ActionResult<T, E extends EchoSpec = Record<never, never>> = { attempt: number } & (
  { ok: true; data: T } | { ok: false; error: ActionError; values: Echo<E> }
);

/** What `useActionState` keeps: no answer yet, or the last one. */
export type ActionState<T, E extends EchoSpec = Record<never, never>> = ActionResult<T, E> | null;
