import { deflateSync } from 'node:zlib';
import { expect, type Page } from '@playwright/test';

// The guest register's form on the key page (issue 31, item 2), filled as a guest would, in English or Japanese:
// shared by the register's own spec and the whole-journey spec.

/** A small real PNG (8×8, one colour), made here: the register checks the image by its bytes. */
export function pngFixture(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const size = 8;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const rows = Buffer.concat(
    Array.from({ length: size }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, 0x7f)])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export type Words = {
  name: string;
  address: string;
  nationality: string;
  passportNumber: string;
  passportImage: string;
  add: string;
  submit: string;
  japan: string;
  britain: string;
  summary: string;
  complete: string;
};

export const EN: Words = {
  name: 'Full name',
  address: 'Home address',
  nationality: 'Nationality',
  passportNumber: 'Passport number',
  passportImage: 'Photo of the passport’s photo page',
  add: 'Add a guest',
  submit: 'Save the register',
  japan: 'Japan',
  britain: 'United Kingdom',
  summary: 'Please check the fields marked below.',
  complete: 'Register complete',
};
export const JA: Words = {
  name: '氏名',
  address: '住所',
  nationality: '国籍',
  passportNumber: '旅券番号',
  passportImage: '旅券の写真ページの画像',
  add: '宿泊者を追加',
  submit: '名簿を保存',
  japan: '日本',
  britain: 'イギリス',
  summary: '下に示した項目を確認してください。',
  complete: '名簿の記入が完了しました',
};

/**
 * Fills the register for a Japanese guest and a foreign one on the open key page, until it says it is complete; the
 * first submit forgets the passport, and keeps the entries. The page is not reloaded.
 */
export async function fillRegister(page: Page, w: Words, png: Buffer) {
  const form = page.getByTestId('guest-register');
  await expect(form).toBeVisible();
  const first = page.getByTestId('register-guest-1');
  await first.getByLabel(w.name, { exact: true }).fill('山田 太郎');
  await first.getByLabel(w.address, { exact: true }).fill('東京都千代田区千代田1-1');
  await first.getByLabel(w.nationality, { exact: true }).selectOption({ label: w.japan });
  await page.getByRole('button', { name: w.add }).click();
  const second = page.getByTestId('register-guest-2');
  await second.getByLabel(w.name, { exact: true }).fill('Ada Lovelace');
  await second.getByLabel(w.address, { exact: true }).fill('12 St James Square, London');
  await second.getByLabel(w.nationality, { exact: true }).selectOption({ label: w.britain });

  // Without the passport: each missing field says so, the summary takes the focus, nothing typed is lost.
  await page.getByTestId('guest-register-submit').click();
  await expect(page.getByTestId('guest-register-error')).toHaveText(w.summary);
  await expect(second.getByLabel(w.passportNumber, { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(first.getByLabel(w.name, { exact: true })).toHaveValue('山田 太郎');
  await expect(second.getByLabel(w.name, { exact: true })).toHaveValue('Ada Lovelace');

  await second.getByLabel(w.passportNumber, { exact: true }).fill('P1234567');
  await second
    .getByLabel(w.passportImage, { exact: true })
    .setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: png });
  await page.getByTestId('guest-register-submit').click();
  await expect(page.getByTestId('guest-register-complete').first()).toHaveText(w.complete, { timeout: 20_000 });
}
