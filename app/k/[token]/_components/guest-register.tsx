'use client';

import { useRouter } from 'next/navigation';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/field';
import { fill } from '@/lib/i18n/slots';
import { imageTypeOf, MAX_PASSPORT_IMAGE_BYTES, MAX_REGISTER_GUESTS } from '@/lib/registration/image-type';
import type { GuestRegisterWords } from './guest-register-words';

type Props = {
  token: string;
  /** Its words, translated by the page (guest-register-words.ts): no i18n runtime on the phone. */
  words: GuestRegisterWords;
  /** The nationalities offered, named in the guest's language (Japan first). */
  countries: { code: string; name: string }[];
};

type Photo = { dataUrl: string; name: string };

type GuestForm = {
  key: number;
  name: string;
  address: string;
  addressInJapan: boolean;
  nationality: string;
  occupation: string;
  passportNumber: string;
  photo: Photo | null;
};

type FieldName = 'name' | 'address' | 'nationality' | 'passportNumber' | 'passportImage';
type ErrorKey = keyof GuestRegisterWords['errors'];
/** Errors by `${guest key}.${field}`. */
type Errors = Record<string, ErrorKey>;

/** A new guest's form; its key names its fields' ids, the same on the server and the phone (0 is the first guest). */
const blankGuest = (key: number): GuestForm => ({
  key,
  name: '',
  address: '',
  addressInJapan: false,
  nationality: '',
  occupation: '',
  passportNumber: '',
  photo: null,
});

/** Whether the law asks this guest's passport: not Japanese and no address in Japan. */
const needsPassport = (g: GuestForm) => g.nationality !== '' && g.nationality !== 'JP' && !g.addressInJapan;

/** What the phone can check before sending: the same rules the server applies (it checks again). */
function checkGuests(guests: GuestForm[]): Errors {
  const errors: Errors = {};
  for (const g of guests) {
    if (!g.name.trim()) errors[`${g.key}.name`] = 'required';
    if (!g.address.trim()) errors[`${g.key}.address`] = 'required';
    if (!g.nationality) errors[`${g.key}.nationality`] = 'country';
    if (needsPassport(g)) {
      if (!g.passportNumber.trim()) errors[`${g.key}.passportNumber`] = 'passportNumber';
      if (!g.photo) errors[`${g.key}.passportImage`] = 'passportImage';
    }
  }
  return errors;
}

/** The server's `issues` (paths `guests.N.field`) as this form's errors. */
function errorsOfIssues(guests: GuestForm[], issues: { path?: string; message?: string; code?: string }[]): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const [, index, field] = /^guests\.(\d+)\.(\w+)$/.exec(issue.path ?? '') ?? [];
    const guest = index === undefined ? undefined : guests[Number(index)];
    if (!guest || !field) continue;
    const message = issue.message ?? '';
    errors[`${guest.key}.${field}`] =
      field === 'passportImage'
        ? /5 MB/.test(message)
          ? 'tooLarge'
          : /JPEG or PNG/.test(message)
            ? 'notImage'
            : /required/.test(message)
              ? 'passportImage'
              : 'invalid'
        : field === 'passportNumber' && /required/.test(message)
          ? 'passportNumber'
          : issue.code === 'too_small'
            ? 'required'
            : 'invalid';
  }
  return errors;
}

/** A photo's problem, read from its bytes and size on the phone before anything is uploaded. */
async function photoProblem(file: File): Promise<ErrorKey | null> {
  if (file.size > MAX_PASSPORT_IMAGE_BYTES) return 'tooLarge';
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  return imageTypeOf(head) ? null : 'notImage';
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

type Sent = { status: number; body: { data?: { complete?: boolean }; error?: { code?: string; issues?: [] } } | null };

/** PUTs the register with the upload's progress (fetch reports none): XMLHttpRequest, the one way a page can. */
function send(token: string, body: string, onProgress: (percent: number) => void): Promise<Sent> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `/api/guest/${encodeURIComponent(token)}/registration`);
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let parsed: Sent['body'] = null;
      try {
        parsed = JSON.parse(xhr.responseText) as Sent['body'];
      } catch {
        parsed = null;
      }
      resolve({ status: xhr.status, body: parsed });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.send(body);
  });
}

/**
 * The guest register of Japan's lodging law on the guest's phone: every guest of the stay (add, remove),
 * each with name, address, nationality and occupation, and for a guest who is not Japanese and does not
 * live in Japan, the passport's number and a photo of it — checked for type and size here before it is
 * sent. The upload shows its progress; a refused or failed submit keeps every entry and photo, with
 * each field's error beside it and a summary that takes the focus.
 */
export function GuestRegister({ token, words: w, countries }: Props) {
  const router = useRouter();
  const id = useId();
  const [guests, setGuests] = useState<GuestForm[]>(() => [blankGuest(0)]);
  const nextKey = useRef(1);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<ErrorKey | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [complete, setComplete] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);

  const update = (key: number, change: Partial<GuestForm>) => {
    setGuests((list) => list.map((g) => (g.key === key ? { ...g, ...change } : g)));
    // A field the guest changes loses its error; the others keep theirs.
    setErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(change)) delete next[`${key}.${field === 'photo' ? 'passportImage' : field}`];
      return next;
    });
  };

  const choosePhoto = async (key: number, file: File | undefined) => {
    if (!file) return update(key, { photo: null });
    const problem = await photoProblem(file);
    if (problem) {
      update(key, { photo: null });
      setErrors((current) => ({ ...current, [`${key}.passportImage`]: problem }));
      return;
    }
    update(key, { photo: { dataUrl: await readDataUrl(file), name: file.name } });
  };

  const showFailure = (next: Errors, general: ErrorKey | null) => {
    setErrors(next);
    setFailure(general);
    requestAnimationFrame(() => summaryRef.current?.focus());
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (progress !== null) return;
    const found = checkGuests(guests);
    if (Object.keys(found).length > 0) return showFailure(found, null);
    const body = JSON.stringify({
      guests: guests.map((g) => ({
        name: g.name.trim(),
        address: g.address.trim(),
        addressInJapan: g.addressInJapan,
        nationality: g.nationality,
        ...(g.occupation.trim() ? { occupation: g.occupation.trim() } : {}),
        ...(g.passportNumber.trim() ? { passportNumber: g.passportNumber.trim() } : {}),
        ...(g.photo ? { passportImage: g.photo.dataUrl } : {}),
      })),
    });
    setProgress(0);
    setFailure(null);
    const sent = await send(token, body, setProgress);
    setProgress(null);
    if (sent.status === 200 && sent.body?.data?.complete) {
      setErrors({});
      setComplete(true);
      router.refresh();
      return;
    }
    const code = sent.body?.error?.code;
    if (sent.status === 400 && sent.body?.error?.issues) {
      const fromServer = errorsOfIssues(guests, sent.body.error.issues);
      return showFailure(fromServer, Object.keys(fromServer).length > 0 ? null : 'invalid');
    }
    showFailure({}, code === 'conflict' ? 'closed' : code === 'rate_limited' ? 'rateLimited' : 'failed');
  };

  if (complete) {
    return (
      <section className="guest-card guest-register" aria-labelledby={`${id}-title`} data-testid="guest-register">
        <h2 id={`${id}-title`}>{w.title}</h2>
        <p className="guest-status guest-status--success" role="status" data-testid="guest-register-complete">
          {w.complete}
        </p>
        <p className="guest-hint">{w.completeHint}</p>
      </section>
    );
  }

  const errorCount = Object.keys(errors).length;
  const shown = (key: number, field: FieldName) => {
    const error = errors[`${key}.${field}`];
    return error ? w.errors[error] : undefined;
  };

  return (
    <section className="guest-card guest-register" aria-labelledby={`${id}-title`} data-testid="guest-register">
      <h2 id={`${id}-title`}>{w.title}</h2>
      <p className="guest-hint">{w.lead}</p>
      <form className="form" noValidate onSubmit={submit} aria-busy={progress !== null}>
        <div ref={summaryRef} tabIndex={-1} role="alert" className="guest-register__summary">
          {(errorCount > 0 || failure) && (
            <p className="book-error" data-testid="guest-register-error">
              {failure ? w.errors[failure] : w.errors.summary}
            </p>
          )}
        </div>
        {guests.map((g, index) => {
          const n = String(index + 1);
          const field = (name: string) => `${id}-${g.key}-${name}`;
          const passport = needsPassport(g);
          return (
            <fieldset key={g.key} className="guest-register__guest" data-testid={`register-guest-${index + 1}`}>
              <legend>{fill(w.guest, { n })}</legend>
              <Field id={field('name')} label={w.name} error={shown(g.key, 'name')}>
                {(control) => (
                  <Input
                    {...control}
                    autoComplete={index === 0 ? 'name' : 'off'}
                    required
                    maxLength={200}
                    value={g.name}
                    onChange={(e) => update(g.key, { name: e.target.value })}
                  />
                )}
              </Field>
              <Field id={field('address')} label={w.address} error={shown(g.key, 'address')}>
                {(control) => (
                  <Input
                    {...control}
                    autoComplete={index === 0 ? 'street-address' : 'off'}
                    required
                    maxLength={500}
                    value={g.address}
                    onChange={(e) => update(g.key, { address: e.target.value })}
                  />
                )}
              </Field>
              <label className="book-check">
                <input
                  type="checkbox"
                  checked={g.addressInJapan}
                  onChange={(e) => update(g.key, { addressInJapan: e.target.checked })}
                />
                <span>{w.addressInJapan}</span>
              </label>
              <Field id={field('nationality')} label={w.nationality} error={shown(g.key, 'nationality')}>
                {(control) => (
                  <Select
                    {...control}
                    required
                    value={g.nationality}
                    onChange={(e) => update(g.key, { nationality: e.target.value })}
                  >
                    <option value="">{w.chooseCountry}</option>
                    {countries.map((c) => (
                      <option key={c.code} value={c.code}>
                        {c.name}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field id={field('occupation')} label={w.occupation}>
                {(control) => (
                  <Input
                    {...control}
                    maxLength={100}
                    autoComplete={index === 0 ? 'organization-title' : 'off'}
                    value={g.occupation}
                    onChange={(e) => update(g.key, { occupation: e.target.value })}
                  />
                )}
              </Field>
              {passport && (
                <>
                  <p className="guest-note">{w.passportNeeded}</p>
                  <Field id={field('passportNumber')} label={w.passportNumber} error={shown(g.key, 'passportNumber')}>
                    {(control) => (
                      <Input
                        {...control}
                        required
                        maxLength={40}
                        autoCapitalize="characters"
                        autoComplete="off"
                        spellCheck={false}
                        value={g.passportNumber}
                        onChange={(e) => update(g.key, { passportNumber: e.target.value })}
                      />
                    )}
                  </Field>
                  <Field
                    id={field('passportImage')}
                    label={w.passportImage}
                    hint={g.photo ? fill(w.passportChosen, { file: g.photo.name }) : w.passportHint}
                    error={shown(g.key, 'passportImage')}
                  >
                    {(control) => (
                      <input
                        {...control}
                        type="file"
                        accept="image/jpeg,image/png"
                        className="guest-register__file"
                        onChange={(e) => void choosePhoto(g.key, e.target.files?.[0])}
                      />
                    )}
                  </Field>
                </>
              )}
              {guests.length > 1 && (
                <Button
                  type="button"
                  variant="ghost"
                  onClick={() => setGuests((list) => list.filter((other) => other.key !== g.key))}
                >
                  {fill(w.remove, { n })}
                </Button>
              )}
            </fieldset>
          );
        })}
        {guests.length < MAX_REGISTER_GUESTS && (
          <Button
            type="button"
            variant="secondary"
            onClick={() => {
              const key = nextKey.current++;
              setGuests((list) => [...list, blankGuest(key)]);
            }}
          >
            {w.add}
          </Button>
        )}
        {progress !== null && (
          <p className="guest-register__progress" role="status">
            <label htmlFor={`${id}-progress`}>{fill(w.uploading, { percent: String(progress) })}</label>
            <progress id={`${id}-progress`} max={100} value={progress} />
          </p>
        )}
        <Button type="submit" variant="primary" disabled={progress !== null} data-testid="guest-register-submit">
          {w.submit}
        </Button>
      </form>
    </section>
  );
}
