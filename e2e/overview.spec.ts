import { expect, test } from './fixtures';
import { bookNight, checkInButton } from './helpers';

// Runs in the "desktop" project, in a tenant of its own (two rooms, UTC): its figures are this test's.

test.use({ rooms: 2 });

test("the manager's overview counts tonight's stay and today's check-in, with a chart in words; the audit log names the room and guest and opens the stay", async ({
  deskPage: desk,
  managerPage: manager,
  tenant,
}) => {
  const today = new Date();
  const day = today.toISOString().slice(0, 10);

  // Before anything happens: no check-ins, so the chart says so in words instead of drawing nothing.
  await manager.goto('/manage');
  await expect(manager.getByTestId('overview-occupancy-value')).toHaveText('0 / 2');
  await expect(manager.getByTestId('chart-check-ins-empty')).toBeVisible();

  // The desk books Kenji Sato for tonight and checks him in.
  const { reservationUrl, roomId } = await bookNight(desk, { day: today, guestName: 'Kenji Sato' });
  await checkInButton(desk).click();
  await expect(desk.getByTestId('checkin-result')).toBeVisible();
  const room = tenant.rooms.find((r) => r.id === roomId)!;

  await manager.reload();
  // Occupancy tonight: one of the facility's two rooms.
  await expect(manager.getByTestId('overview-occupancy-value')).toHaveText('1 / 2');
  await expect(manager.getByTestId('overview-occupancy-facility')).toHaveAttribute('data-occupied', '1');
  await expect(manager.getByTestId('overview-occupancy-link')).toHaveAttribute('href', '/desk');

  // The check-ins chart: an image whose accessible name carries the figures, and every day in a table.
  const chart = manager.getByTestId('chart-check-ins');
  await expect(chart.getByRole('img')).toHaveAccessibleName(/Check-ins per day.*Check-ins: 1 in total/);
  const todayRow = manager.getByTestId('chart-check-ins-table').locator(`tr[data-day="${day}"]`);
  await expect(todayRow.locator('td')).toHaveText('1');
  await expect(manager.getByTestId('chart-check-ins-table').locator('tbody tr')).toHaveCount(14);
  // Keys issued today: the pre-issued key and the check-in key.
  await expect(
    manager.getByTestId('chart-keys-table').locator(`tr[data-day="${day}"]`).locator('td').first(),
  ).toHaveText('2');

  // No webhook failed for this tenant; no message outbox counted as zero when it cannot be counted.
  await expect(manager.getByTestId('overview-webhooks-value')).toHaveText('0');
  await expect(manager.getByTestId('overview-webhooks-link')).toHaveAttribute('href', '/manage/webhooks');
  await expect(manager.getByTestId('overview-keys-link')).toHaveAttribute('href', '/manage/locks');

  // The incidents tile counts what the incidents page lists as open (install-wide ones included).
  const openIncidents = await manager.getByTestId('overview-incidents-value').innerText();
  await manager.getByTestId('overview-incidents-link').click();
  await expect(manager).toHaveURL(/\/manage\/incidents$/);
  await expect(manager.getByTestId('incidents-open').getByTestId('incident-row')).toHaveCount(Number(openIncidents));

  // The audit log names the stay as "Room … · Kenji Sato", and the name opens the reservation.
  await manager.goto('/manage/audit');
  const created = manager.getByTestId('audit-row').and(manager.locator('[data-action="reservation.created"]'));
  const stay = created.getByTestId('audit-subject-link');
  await expect(stay).toHaveText(`Room ${room.label} · Kenji Sato`);
  await stay.click();
  await expect(manager).toHaveURL(reservationUrl);
  await expect(manager.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(manager.getByText('Kenji Sato').first()).toBeVisible();
});
