import type { MessageKeys, NestedKeyOf } from 'next-intl';
import en from '../../messages/en.json';
import ja from '../../messages/ja.json';

/**
 * Every user-visible string of the UI, one JSON file per locale under messages/ (nested by screen:
 * `signIn.title`). English is the reference: its shape is the type every other locale must match
 * (catalog.test.ts), and `MessageKey` is every dotted path to a message in it.
 */
export type Messages = typeof en;
export type MessageKey = MessageKeys<Messages, NestedKeyOf<Messages>>;

export const messages: Record<'en' | 'ja', Messages> = { en, ja };

/** True when `value` names a message (a dotted path to a string in the English catalog). */
export function isMessageKey(value: string): value is MessageKey {
  let node: unknown = messages.en;
  for (const part of value.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, part)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}
