import { devices } from '@playwright/test';
import { deskBooksTonight, expect, japanesePhoneOn, signInAs, test } from './fixtures';

// On the guest's phone (Pixel 7), in English and in Japanese: the guest writes to the desk and reports that their
// code does not work; the front desk reads both on its day. The stay is in a tenant of its own.
const { defaultBrowserType: _browser, ...phone } = devices['Pixel 7'];
const { defaultBrowserType: _desktop, ...desktop } = devices['Desktop Chrome'];
test.use(phone);
test.describe.configure({ mode: 'serial' });

test('a guest messages the desk and reports their code; the desk sees both on its day', async ({
  page,
  browser,
  baseURL,
  tenant,
}) => {
  // The manager writes how guests reach the property; the desk books the guest tonight.
  const manager = await browser.newContext(desktop);
  await signInAs(manager, tenant.manager, baseURL!);
  const managerPage = await manager.newPage();
  await managerPage.goto(`/manage/facilities/${tenant.facilityId}`);
  await managerPage.getByTestId('facility-phone').fill('+81 3 1234 5678');
  await managerPage.getByTestId('facility-email').fill('desk@example.com');
  await managerPage.getByTestId('facility-save').click();
  await expect(managerPage.getByTestId('facility-saved')).toBeVisible();
  await manager.close();

  const guestName = `Mei Suzuki ${Date.now()}`;
  const { desk, deskPage, guestPath } = await deskBooksTonight(browser, tenant, baseURL!, guestName);

  // The guest's page: the phone first, the email, then the desk.
  await page.goto(guestPath);
  await page.waitForLoadState('networkidle');
  const help = page.getByTestId('guest-help');
  await expect(help.getByRole('link', { name: /\+81 3 1234 5678/ })).toHaveAttribute('href', 'tel:+81312345678');
  await expect(help.getByTestId('guest-contact-email')).toHaveAttribute('href', 'mailto:desk@example.com');

  // An empty message is refused on the phone; a real one is sent.
  await help.getByRole('button', { name: 'Send message' }).click();
  await expect(help.getByTestId('guest-message-result')).toHaveText('Write a message first.');
  await help.getByLabel('Message the desk').fill('We will arrive after midnight.\nIs that all right?');
  await help.getByRole('button', { name: 'Send message' }).click();
  await expect(help.getByTestId('guest-message-result')).toHaveText('Sent. The desk will read it soon.');

  // "My code does not work": a confirm first, then the desk is told (the simulator's locks keep no backup pool).
  await help.getByTestId('guest-code-problem-button').click();
  await expect(help.getByText('Tell the desk that your code does not open the door?')).toBeVisible();
  await help.getByTestId('guest-code-problem-confirm').click();
  await expect(help.getByTestId('guest-code-problem-result')).toContainText('The desk has been told.');
  await expect(help.getByTestId('guest-backup-code')).toHaveCount(0);

  // The same page on a Japanese phone.
  const { context: japanese, page: jaPage } = await japanesePhoneOn(browser, baseURL!, guestPath);
  const jaHelp = jaPage.getByTestId('guest-help');
  await expect(jaHelp.getByRole('heading', { name: 'サポート' })).toBeVisible();
  await jaHelp.getByLabel('フロントへメッセージ').fill('タオルをもう一枚お願いします。');
  await jaHelp.getByRole('button', { name: 'メッセージを送信' }).click();
  await expect(jaHelp.getByTestId('guest-message-result')).toHaveText('送信しました。フロントが確認します。');
  await jaHelp.getByRole('button', { name: '暗証番号が使えない' }).click();
  await jaHelp.getByRole('button', { name: 'はい、知らせる' }).click();
  await expect(jaHelp.getByTestId('guest-code-problem-result')).toContainText('フロントに知らせました。');
  await japanese.close();

  // The desk's day: the messages newest first, the code report urgent and counted once (two taps, minutes apart
  // at most), unread until marked.
  await deskPage.goto('/desk');
  const inbox = deskPage.getByTestId('day-guest-messages');
  const messages = inbox.getByTestId('guest-message');
  await expect(messages).toHaveCount(3);
  await expect(inbox.getByTestId('guest-messages-unread')).toHaveText('3 unread');
  await expect(messages.nth(0)).toContainText('タオルをもう一枚お願いします。');
  await expect(messages.filter({ hasText: 'Their code does not work' })).toHaveAttribute('data-kind', 'code_problem');
  await expect(messages.filter({ hasText: 'Their code does not work' })).toContainText('Urgent');
  const note = messages.filter({ hasText: 'We will arrive after midnight.' });
  await expect(note).toContainText(guestName);
  await note.getByRole('button', { name: /Mark read/ }).click();
  await expect(note).toHaveAttribute('data-read', 'true');
  await expect(inbox.getByTestId('guest-messages-unread')).toHaveText('2 unread');

  // The reservation's timeline shows what the guest wrote.
  await note.getByRole('link', { name: new RegExp(guestName) }).click();
  await expect(deskPage.getByTestId('timeline-guest-message').first()).toContainText('We will arrive after midnight.');
  await desk.close();
});
