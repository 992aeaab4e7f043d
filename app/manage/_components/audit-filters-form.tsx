'use client';

import { useTranslations } from 'next-intl';
import {
  AUDIT_ACTION_GROUPS,
  AUDIT_ACTIONS,
  isAuditAction,
  isAuditActionGroup,
  type AuditActionGroup,
  type AuditUrlFilters,
} from '@/lib/audit/audit-filters';
import { Button, buttonClassName } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/field';
import styles from './audit-log.module.css';

/** What each group of actions is called in the action filter. */
const GROUP_LABELS = { 'door.*': 'filters.group.door' } as const satisfies Record<AuditActionGroup, string>;

type Props = {
  /** Prefix for the form's element ids (`useId()` of the audit log). */
  id: string;
  form: AuditUrlFilters;
  update: (name: keyof AuditUrlFilters, value: string, immediate: boolean) => void;
  reset: () => void;
  /** The applied filters as a query string: the CSV export downloads exactly these events. */
  search: string;
  subjectIdInvalid: boolean;
  isFiltered: boolean;
  rooms: { id: string; label: string }[];
  /** The facility's IANA zone: the dates are its days. */
  timeZone: string;
};

/** The audit log's filters: selects and dates apply at once, text after a pause in typing. */
export function AuditFiltersForm({
  id,
  form,
  update,
  reset,
  search,
  subjectIdInvalid,
  isFiltered,
  rooms,
  timeZone,
}: Props) {
  const t = useTranslations('audit');
  return (
    <section className="section" aria-labelledby={`${id}-filters`}>
      <h2 id={`${id}-filters`} className="visually-hidden">
        {t('filters.title')}
      </h2>
      <form
        role="search"
        aria-labelledby={`${id}-filters`}
        className={styles.filters}
        data-testid="audit-filters"
        onSubmit={(e) => e.preventDefault()}
      >
        <Field id={`${id}-action`} label={t('filters.action')}>
          {(control) => (
            <Select
              {...control}
              name="action"
              value={form.action}
              onChange={(e) => {
                const value = e.target.value;
                update('action', isAuditAction(value) || isAuditActionGroup(value) ? value : '', true);
              }}
            >
              <option value="">{t('filters.anyAction')}</option>
              {AUDIT_ACTION_GROUPS.map((group) => (
                <option key={group} value={group}>
                  {t(GROUP_LABELS[group])} ({group})
                </option>
              ))}
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {t(`action.${action}`)} ({action})
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field id={`${id}-actor`} label={t('filters.actor')} hint={t('filters.actorHint')}>
          {(control) => (
            <Input
              {...control}
              name="actor"
              type="search"
              autoComplete="off"
              maxLength={200}
              value={form.actor}
              onChange={(e) => update('actor', e.target.value, false)}
            />
          )}
        </Field>
        <Field
          id={`${id}-subject`}
          label={t('filters.subjectId')}
          hint={subjectIdInvalid ? t('filters.subjectIdInvalid') : t('filters.subjectIdHint')}
        >
          {(control) => (
            <Input
              {...control}
              name="subjectId"
              type="search"
              mono
              autoComplete="off"
              spellCheck={false}
              maxLength={36}
              value={form.subjectId}
              onChange={(e) => update('subjectId', e.target.value, false)}
              aria-invalid={subjectIdInvalid || undefined}
            />
          )}
        </Field>
        <Field id={`${id}-room`} label={t('filters.room')}>
          {(control) => (
            <Select
              {...control}
              name="roomId"
              value={form.roomId}
              onChange={(e) => update('roomId', e.target.value, true)}
            >
              <option value="">{t('filters.anyRoom')}</option>
              {rooms.map((room) => (
                <option key={room.id} value={room.id}>
                  {room.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field id={`${id}-from`} label={t('filters.from')} describedBy={`${id}-dates-hint`}>
          {(control) => (
            <Input
              {...control}
              name="from"
              type="date"
              value={form.from}
              max={form.to || undefined}
              onChange={(e) => update('from', e.target.value, true)}
            />
          )}
        </Field>
        <Field id={`${id}-to`} label={t('filters.to')} describedBy={`${id}-dates-hint`}>
          {(control) => (
            <Input
              {...control}
              name="to"
              type="date"
              value={form.to}
              min={form.from || undefined}
              onChange={(e) => update('to', e.target.value, true)}
            />
          )}
        </Field>
        <p id={`${id}-dates-hint`} className={styles.note}>
          {t('filters.datesHint', { zone: timeZone })}
        </p>
        <div className={styles.actions}>
          <Button variant="ghost" onClick={reset} disabled={!isFiltered}>
            {t('filters.reset')}
          </Button>
          <a
            href={`/manage/audit/export${search ? `?${search}` : ''}`}
            className={buttonClassName({ variant: 'secondary' })}
            data-testid="audit-export"
            download
            aria-describedby={`${id}-export-hint`}
          >
            {t('export')}
          </a>
          <span id={`${id}-export-hint`} className="visually-hidden">
            {t('exportHint')}
          </span>
        </div>
      </form>
    </section>
  );
}
