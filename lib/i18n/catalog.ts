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
