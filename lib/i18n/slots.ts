/**
 * Messages a Client Component finishes itself, without next-intl's runtime (decision 013): the
 * server translates the message with each named placeholder left in it (`leaveSlots`), and the
 * client puts in the value it only learns later, a PIN or a time (`fill`). Only a plain `{name}`
 * argument can be left for the client: one that a plural or select depends on is the server's.
 */

declare const slotNames: unique symbol;

/** A translated message with placeholders `Name` still in it ("PIN {digits}"). */
export type WithSlots<Name extends string> = string & { readonly [slotNames]?: Name };

/** Translates a message with each of `names` left as its placeholder, for `fill` on the client. */
export function leaveSlots<Name extends string>(
  translate: (values: Record<Name, string>) => string,
  ...names: Name[]
): WithSlots<Name> {
  return translate(Object.fromEntries(names.map((name) => [name, `{${name}}`])) as Record<Name, string>);
}

/** Puts the values into a message's slots; any other brace is left as it is. */
export function fill<Name extends string>(message: WithSlots<Name>, values: Record<Name, string>): string {
  return message.replace(/\{(\w+)\}/g, (slot, name: string) =>
    Object.hasOwn(values, name) ? values[name as Name] : slot,
  );
}
