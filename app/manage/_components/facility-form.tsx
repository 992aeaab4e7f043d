'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId, useState } from 'react';
import { saveFacilityAction } from '@/app/manage/facilities/actions';
import { Button } from '@/components/ui/button';
import { ActionInput, ActionSelect, ActionTextarea, typedValue } from '@/components/ui/action-field';
import { Field, Select } from '@/components/ui/field';
import { FormError } from '@/components/ui/notice';
import type { FacilitySettings } from '@/lib/facilities/facility-input';
import { ActionResult } from './action-result';
import styles from './setup.module.css';

const GUEST_FIELDS = ['directions', 'keypad', 'wifiName', 'wifiPassword', 'houseRules'] as const;
const LONG = new Set(['directions', 'keypad', 'houseRules']);
const LANGUAGES = [
  { locale: 'en', label: 'English' },
  { locale: 'ja', label: '日本語' },
] as const;

type Props = {
  /** The facility being edited; none for a new one. */
  facility?: FacilitySettings & { id: string };
  zones: string[];
};

/**
 * Every setting of a facility: name, time zone, nightly (check-in and check-out) or hourly (opening
 * hours), key lead and early check-in minutes, address, phone, email and the guest's door information in
 * English and Japanese. A refusal shows its message beside each field and keeps what was typed.
 */
export function FacilityForm({ facility, zones }: Props) {
  const t = useTranslations('facilities');
  const [state, action, pending] = useActionState(saveFacilityAction, null);
  const id = useId();
  const value = (name: string, stored: string | number | null | undefined) =>
    typedValue(state, name, stored === null || stored === undefined ? '' : String(stored));
  const [unit, setUnit] = useState(value('bookingUnit', facility?.bookingUnit ?? 'night'));
  const error = state && !state.ok ? state.error : null;

  const text = (name: string, label: string, stored: string | number | null | undefined, props = {}) => (
    <ActionInput
      state={state}
      id={`${id}-${name}`}
      name={name}
      label={label}
      stored={stored}
      data-testid={`facility-${name}`}
      {...props}
    />
  );

  return (
    <form
      action={action}
      noValidate
      className="form"
      data-testid="facility-form"
      // A new answer re-applies the typed values (React resets a form after its action).
      key={state?.attempt ?? 0}
    >
      {facility && <input type="hidden" name="facilityId" value={facility.id} />}
      <div className={styles.grid}>
        {text('name', t('field.name'), facility?.name, { required: true, maxLength: 200 })}
        {/* Typed and filtered by the browser from the runtime's IANA names; the server checks the name again. */}
        <ActionInput
          state={state}
          id={`${id}-timeZone`}
          name="timeZone"
          label={t('field.timeZone')}
          hint={t('hint.timeZone')}
          stored={facility?.timeZone ?? 'Asia/Tokyo'}
          list={`${id}-zones`}
          autoComplete="off"
          spellCheck={false}
          maxLength={100}
          data-testid="facility-timeZone"
        />
        <datalist id={`${id}-zones`}>
          {/* A zone stored under another name (an alias) stays offered, so saving never changes it unasked. */}
          {(facility && !zones.includes(facility.timeZone) ? [facility.timeZone, ...zones] : zones).map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        <ActionSelect
          state={state}
          id={`${id}-defaultLanguage`}
          name="defaultLanguage"
          label={t('field.defaultLanguage')}
          hint={t('hint.defaultLanguage')}
          stored={facility?.defaultLanguage ?? 'en'}
          data-testid="facility-defaultLanguage"
        >
          <option value="en">English</option>
          <option value="ja" lang="ja">
            日本語
          </option>
        </ActionSelect>
        <fieldset className={styles.fieldset} aria-describedby={`${id}-languages-hint`}>
          <legend>{t('field.guestLanguages')}</legend>
          <p id={`${id}-languages-hint`} className="muted">
            {t('hint.guestLanguages')}
          </p>
          {/* Sent even when no box is ticked, so "none" is told apart from a form without the field. */}
          <input type="hidden" name="guestLanguages" value="" />
          {LANGUAGES.map(({ locale, label }) => (
            <label key={locale} lang={locale}>
              <input
                type="checkbox"
                name="guestLanguages"
                value={locale}
                defaultChecked={(facility?.guestLanguages ?? ['en', 'ja']).includes(locale)}
                data-testid={`facility-guestLanguage-${locale}`}
              />{' '}
              {label}
            </label>
          ))}
          {error?.fieldErrors?.guestLanguages && (
            <p className="field-error" data-testid="facility-guestLanguages-error">
              {error.fieldErrors.guestLanguages}
            </p>
          )}
        </fieldset>
        <Field id={`${id}-bookingUnit`} label={t('field.bookingUnit')} hint={t('hint.bookingUnit')}>
          {(control) => (
            <Select
              {...control}
              name="bookingUnit"
              value={unit}
              onChange={(event) => setUnit(event.target.value)}
              data-testid="facility-bookingUnit"
            >
              <option value="night">{t('unit.night')}</option>
              <option value="hour">{t('unit.hour')}</option>
            </Select>
          )}
        </Field>
      </div>

      <div className={styles.grid}>
        {unit === 'hour' ? (
          <>
            {text('opensAt', t('field.opensAt'), facility?.opensAt ?? '09:00', { type: 'time' })}
            {text('closesAt', t('field.closesAt'), facility?.closesAt ?? '18:00', { type: 'time' })}
            <input type="hidden" name="checkInTime" value={value('checkInTime', facility?.checkInTime ?? '15:00')} />
            <input type="hidden" name="checkOutTime" value={value('checkOutTime', facility?.checkOutTime ?? '10:00')} />
          </>
        ) : (
          <>
            {text('checkInTime', t('field.checkInTime'), facility?.checkInTime ?? '15:00', { type: 'time' })}
            {text('checkOutTime', t('field.checkOutTime'), facility?.checkOutTime ?? '10:00', { type: 'time' })}
          </>
        )}
        {text('keyLeadMinutes', t('field.keyLeadMinutes'), facility?.keyLeadMinutes ?? 120, {
          type: 'number',
          min: 0,
          max: 10080,
          inputMode: 'numeric',
        })}
        {text('earlyCheckInMinutes', t('field.earlyCheckInMinutes'), facility?.earlyCheckInMinutes ?? 0, {
          type: 'number',
          min: 0,
          max: 1440,
          inputMode: 'numeric',
        })}
      </div>

      <div className={styles.grid}>
        {text('address', t('field.address'), facility?.address, { maxLength: 500, autoComplete: 'street-address' })}
        {text('phone', t('field.phone'), facility?.phone, { maxLength: 50, type: 'tel' })}
        {text('email', t('field.email'), facility?.email, { maxLength: 254, type: 'email', autoComplete: 'email' })}
      </div>

      {(['en', 'ja'] as const).map((locale) => (
        <fieldset key={locale} className={styles.fieldset} lang={locale}>
          <legend>{t(`guestInfo.${locale}`)}</legend>
          <div className={styles.grid}>
            {GUEST_FIELDS.map((field) => {
              const name = `${locale}.${field}`;
              const stored = facility?.guestInfo[locale]?.[field];
              const bound = { state, id: `${id}-${name}`, name, label: t(`guestField.${field}`), stored };
              return LONG.has(field) ? (
                <ActionTextarea
                  key={name}
                  {...bound}
                  rows={3}
                  maxLength={2000}
                  data-testid={`facility-${locale}-${field}`}
                />
              ) : (
                <ActionInput
                  key={name}
                  {...bound}
                  maxLength={100}
                  autoComplete="off"
                  data-testid={`facility-${locale}-${field}`}
                />
              );
            })}
          </div>
        </fieldset>
      ))}

      <FormError data-testid="facility-form-error">{error ? t('error.summary') : null}</FormError>
      <div className="form__submit-row">
        <Button
          variant="primary"
          type="submit"
          loading={pending}
          loadingLabel={t('saving')}
          data-testid="facility-save"
        >
          {facility ? t('save') : t('create')}
        </Button>
      </div>
      {state?.ok && (
        <ActionResult attempt={state.attempt} tone="success" testId="facility-saved">
          {t('saved')}
        </ActionResult>
      )}
    </form>
  );
}
