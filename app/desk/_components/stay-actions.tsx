'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useActionState } from 'react';
import {
  cancelStayAction,
  changeStayDatesAction,
  checkOutAction,
  correctGuestAction,
  issueNewKeyAction,
  moveStayAction,
  noShowAction,
} from '@/app/desk/stay-actions';
import { Field, FieldHint, Input, Select } from '@/components/ui/field';
import { StayActionPanel, type PanelState } from './stay-action-panel';
import type { StayChanges } from '@/lib/stays/stay-allows';

export type StayActionsProps = {
  reservationId: string;
  room: string;
  guest: string;
  timeZone: string;
  /** The stay's bounds as datetime-local values in the facility's zone. */
  startsLocal: string;
  endsLocal: string;
  checkedIn: boolean;
  /** The guest's details as stored (null once the guest is deleted). */
  guestDetails: { name: string; email: string | null; phone: string | null } | null;
  can: StayChanges;
  freeRooms: { id: string; label: string }[];
};

/** A reason field (required, 1–200 characters), with the typed value kept after a refusal. */
export function ReasonField({
  id,
  errorId,
  state,
}: {
  id: string;
  errorId: string;
  state: PanelState<unknown> | null;
}) {
  const t = useTranslations('stay');
  const failed = state && !state.ok ? state : null;
  const typed = failed ? String(failed.values.reason ?? '') : '';
  return (
    <Field id={id} label={t('reason')} hint={t('reasonHint')} describedBy={errorId}>
      {(control) => (
        <Input
          {...control}
          name="reason"
          type="text"
          required
          autoComplete="off"
          defaultValue={typed}
          key={failed ? `e-${failed.attempt}` : 'fresh'}
          aria-invalid={failed?.error.field === 'reason' ? true : undefined}
        />
      )}
    </Field>
  );
}

/**
 * The stay changes of one reservation at the desk — check out, move, change dates, correct the
 * guest's details, cancel a booking that has not started, no-show, a new key after every key
 * ended — each with a confirmation naming room and guest, buttons named with both, and its outcome
 * taking the focus.
 */
export function StayActions(props: StayActionsProps) {
  const t = useTranslations('stay');
  const format = useFormatter();
  const { reservationId, room, guest, timeZone } = props;
  const names = { room, guest };
  const hidden = { reservationId };
  const [outState, outAction, outPending] = useActionState(checkOutAction, null);
  const [moveState, moveAction, movePending] = useActionState(moveStayAction, null);
  const [datesState, datesAction, datesPending] = useActionState(changeStayDatesAction, null);
  const [noShowState, noShowDo, noShowPending] = useActionState(noShowAction, null);
  const [keyState, keyAction, keyPending] = useActionState(issueNewKeyAction, null);
  const [cancelState, cancelAction, cancelPending] = useActionState(cancelStayAction, null);
  const [guestState, guestAction, guestPending] = useActionState(correctGuestAction, null);
  const guestFailed = guestState && !guestState.ok ? guestState : null;
  const guestValue = (name: 'name' | 'email' | 'phone') =>
    guestFailed ? String(guestFailed.values[name] ?? '') : (props.guestDetails?.[name] ?? '');
  const datesFailed = datesState && !datesState.ok ? datesState : null;

  return (
    <section className="card stay-actions" aria-labelledby="stay-actions-title" data-testid="stay-actions">
      <h2 id="stay-actions-title">{t('title')}</h2>
      {!Object.values(props.can).some(Boolean) && <p className="muted small">{t('none')}</p>}
      <div className="stay-actions__list">
        <StayActionPanel
          testId="stay-check-out"
          label={t('checkOut.open')}
          named={t('checkOut.named', names)}
          confirm={t('checkOut.confirm', names)}
          submit={t('checkOut.submit')}
          submitNamed={t('checkOut.submitNamed', names)}
          pending={t('checkOut.pending')}
          available={props.can.checkOut}
          action={outAction}
          state={outState}
          isPending={outPending}
          hidden={hidden}
          done={() => t('checkOut.done', names)}
        />
        <StayActionPanel
          testId="stay-move"
          label={t('move.open')}
          named={t('move.named', names)}
          confirm={t('move.confirm', names)}
          submit={t('move.submit')}
          submitNamed={t('move.submitNamed', names)}
          pending={t('move.pending')}
          available={props.can.move}
          action={moveAction}
          state={moveState}
          isPending={movePending}
          hidden={hidden}
          fields={(errorId) => (
            <>
              <Field
                id={`${reservationId}-move-room`}
                label={t('move.room')}
                hint={t('move.roomHint')}
                describedBy={errorId}
              >
                {(control) =>
                  props.freeRooms.length === 0 ? (
                    <p className="muted" data-testid="stay-move-none">
                      {t('move.noRooms')}
                    </p>
                  ) : (
                    <Select {...control} name="roomId" required defaultValue={props.freeRooms[0]!.id}>
                      {props.freeRooms.map((r) => (
                        <option key={r.id} value={r.id}>
                          {t('move.roomOption', { room: r.label })}
                        </option>
                      ))}
                    </Select>
                  )
                }
              </Field>
              <ReasonField id={`${reservationId}-move-reason`} errorId={errorId} state={moveState} />
            </>
          )}
          done={(data) => t('move.done', { guest, room: data.roomLabel })}
        />
        <StayActionPanel
          testId="stay-dates"
          label={t('dates.open')}
          named={t('dates.named', names)}
          confirm={t('dates.confirm', names)}
          submit={t('dates.submit')}
          submitNamed={t('dates.submitNamed', names)}
          pending={t('dates.pending')}
          available={props.can.changeDates}
          action={datesAction}
          state={datesState}
          isPending={datesPending}
          hidden={hidden}
          fields={(errorId) => (
            <div className="field-row">
              {!props.checkedIn && (
                <Field
                  id={`${reservationId}-starts`}
                  label={t('dates.startsAt')}
                  describedBy={`${reservationId}-zone ${errorId}`}
                >
                  {(control) => (
                    <Input
                      {...control}
                      name="startsAt"
                      type="datetime-local"
                      required
                      defaultValue={datesFailed ? String(datesFailed.values.startsAt) : props.startsLocal}
                      key={datesFailed ? `s-${datesFailed.attempt}` : 'fresh'}
                      aria-invalid={datesFailed?.error.field === 'startsAt' ? true : undefined}
                    />
                  )}
                </Field>
              )}
              <Field
                id={`${reservationId}-ends`}
                label={t('dates.endsAt')}
                describedBy={`${reservationId}-zone ${errorId}`}
              >
                {(control) => (
                  <Input
                    {...control}
                    name="endsAt"
                    type="datetime-local"
                    required
                    defaultValue={datesFailed ? String(datesFailed.values.endsAt) : props.endsLocal}
                    key={datesFailed ? `e-${datesFailed.attempt}` : 'fresh'}
                    aria-invalid={datesFailed?.error.field === 'endsAt' ? true : undefined}
                  />
                )}
              </Field>
              <FieldHint id={`${reservationId}-zone`}>
                {props.checkedIn ? t('dates.startLocked', { timeZone }) : t('dates.hint', { timeZone })}
              </FieldHint>
            </div>
          )}
          done={(data) =>
            t('dates.done', {
              start: format.dateTime(new Date(data.startsAt), 'stamp', { timeZone }),
              end: format.dateTime(new Date(data.endsAt), 'stamp', { timeZone }),
            })
          }
        />
        <StayActionPanel
          testId="stay-new-key"
          label={t('newKey.open')}
          named={t('newKey.named', names)}
          confirm={t('newKey.confirm', names)}
          submit={t('newKey.submit')}
          submitNamed={t('newKey.submitNamed', names)}
          pending={t('newKey.pending')}
          available={props.can.newKey}
          action={keyAction}
          state={keyState}
          isPending={keyPending}
          hidden={hidden}
          fields={(errorId) => <ReasonField id={`${reservationId}-key-reason`} errorId={errorId} state={keyState} />}
          done={(data) => (data.pin ? t('newKey.done', { pin: data.pin }) : t('newKey.doneNoPin'))}
        />
        <StayActionPanel
          testId="stay-guest-details"
          label={t('guestDetails.open')}
          named={t('guestDetails.named', names)}
          confirm={t('guestDetails.confirm', names)}
          submit={t('guestDetails.submit')}
          submitNamed={t('guestDetails.submitNamed', names)}
          pending={t('guestDetails.pending')}
          available={props.can.correctGuest}
          action={guestAction}
          state={guestState}
          isPending={guestPending}
          hidden={hidden}
          fields={(errorId) => (
            <div className="field-row" key={guestFailed ? `g-${guestFailed.attempt}` : 'fresh'}>
              {(['name', 'email', 'phone'] as const).map((field) => (
                <Field
                  key={field}
                  id={`${reservationId}-guest-${field}`}
                  label={t(`guestDetails.${field}`)}
                  describedBy={errorId}
                >
                  {(control) => (
                    <Input
                      {...control}
                      name={field}
                      type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
                      required={field === 'name'}
                      autoComplete="off"
                      defaultValue={guestValue(field)}
                    />
                  )}
                </Field>
              ))}
            </div>
          )}
          done={(data) => (data.changed.length === 0 ? t('guestDetails.unchanged') : t('guestDetails.done'))}
        />
        <StayActionPanel
          testId="stay-cancel"
          variant="danger"
          label={t('cancelBooking.open')}
          named={t('cancelBooking.named', names)}
          confirm={t('cancelBooking.confirm', names)}
          submit={t('cancelBooking.submit')}
          submitNamed={t('cancelBooking.submitNamed', names)}
          pending={t('cancelBooking.pending')}
          available={props.can.cancel}
          action={cancelAction}
          state={cancelState}
          isPending={cancelPending}
          hidden={hidden}
          fields={(errorId) => (
            <ReasonField id={`${reservationId}-cancel-reason`} errorId={errorId} state={cancelState} />
          )}
          done={() => t('cancelBooking.done', names)}
        />
        <StayActionPanel
          testId="stay-no-show"
          variant="danger"
          label={t('noShow.open')}
          named={t('noShow.named', names)}
          confirm={t('noShow.confirm', names)}
          submit={t('noShow.submit')}
          submitNamed={t('noShow.submitNamed', names)}
          pending={t('noShow.pending')}
          available={props.can.noShow}
          action={noShowDo}
          state={noShowState}
          isPending={noShowPending}
          hidden={hidden}
          done={() => t('noShow.done', names)}
        />
      </div>
    </section>
  );
}
