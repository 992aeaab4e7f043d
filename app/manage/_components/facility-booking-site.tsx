'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import {
  publishFacilityAction,
  saveFacilityOptionsAction,
  unpublishFacilityAction,
} from '@/app/manage/facilities/actions';
import { Button } from '@/components/ui/button';
import { ActionInput, ActionSelect, ActionTextarea } from '@/components/ui/action-field';
import { FormError } from '@/components/ui/notice';
import type { FacilityOptions } from '@/lib/facilities/facility-options';
import { ActionResult } from './action-result';
import styles from './setup.module.css';

type Options = FacilityOptions & { id: string; taxRate: string };

const CHOICES = {
  taxMode: ['included', 'added'],
  paymentMode: ['none', 'online', 'at_property'],
  checkInMode: ['desk', 'self'],
  registration: ['none', 'jp'],
} as const;

/** How a facility sells and lets guests in: currency, country, tax, payment, check-in and the guest register. */
export function FacilityOptionsForm({ facility }: { facility: Options }) {
  const t = useTranslations('facilities');
  const [state, action, pending] = useActionState(saveFacilityOptionsAction, null);
  const id = useId();
  const text = (name: keyof Options, props = {}) => (
    <ActionInput
      state={state}
      id={`${id}-${name}`}
      name={name}
      label={t(`options.field.${name as 'currency'}`)}
      stored={String(facility[name])}
      data-testid={`facility-${name}`}
      {...props}
    />
  );
  const select = (name: keyof typeof CHOICES) => (
    <ActionSelect
      state={state}
      id={`${id}-${name}`}
      name={name}
      label={t(`options.field.${name}`)}
      stored={facility[name]}
      data-testid={`facility-${name}`}
    >
      {CHOICES[name].map((choice) => (
        <option key={choice} value={choice}>
          {t(`options.${name}.${choice}` as 'options.taxMode.included')}
        </option>
      ))}
    </ActionSelect>
  );
  return (
    <form action={action} noValidate className="form" data-testid="facility-options-form" key={state?.attempt ?? 0}>
      <input type="hidden" name="facilityId" value={facility.id} />
      <div className={styles.grid}>
        {text('currency', { maxLength: 3, autoCapitalize: 'characters' })}
        {text('country', { maxLength: 2, autoCapitalize: 'characters' })}
        {select('taxMode')}
        {text('taxRate', { inputMode: 'decimal' })}
      </div>
      <div className={styles.grid}>
        {select('paymentMode')}
        {select('checkInMode')}
        {text('selfCheckInOpensHours', { type: 'number', min: 0, max: 168, inputMode: 'numeric' })}
        {select('registration')}
      </div>
      <FormError data-testid="facility-options-error">
        {state && !state.ok && state.error.fieldErrors ? t('error.summary') : null}
      </FormError>
      <div className="form__submit-row">
        <Button variant="primary" type="submit" loading={pending} data-testid="facility-options-save">
          {t('options.save')}
        </Button>
      </div>
      {state && (
        <ActionResult attempt={state.attempt} tone={state.ok ? 'success' : 'error'} testId="facility-options-result">
          {state.ok ? t('options.saved') : state.error.message}
        </ActionResult>
      )}
    </form>
  );
}

/** The booking site's address: publish (or move) it, or take it down; a taken address is refused. */
export function BookingSitePublishForm({
  facilityId,
  slug,
  published,
}: {
  facilityId: string;
  slug: string | null;
  published: boolean;
}) {
  const t = useTranslations('facilities.site');
  const [state, action, pending] = useActionState(publishFacilityAction, null);
  const [down, unpublish, unpublishing] = useActionState(unpublishFacilityAction, null);
  const id = useId();
  return (
    <>
      <form action={action} noValidate className="form" data-testid="facility-publish-form" key={state?.attempt ?? 0}>
        <input type="hidden" name="facilityId" value={facilityId} />
        <div className={styles.grid}>
          <ActionInput
            state={state}
            id={`${id}-slug`}
            name="slug"
            label={t('field.slug')}
            hint={t('hint.slug')}
            stored={slug ?? ''}
            maxLength={63}
            autoComplete="off"
            autoCapitalize="none"
            data-testid="facility-slug"
          />
        </div>
        <div className="form__submit-row">
          <Button variant="primary" type="submit" loading={pending} data-testid="facility-publish">
            {published ? t('republish') : t('publish')}
          </Button>
        </div>
        {state && (
          <ActionResult attempt={state.attempt} tone={state.ok ? 'success' : 'error'} testId="facility-publish-result">
            {state.ok ? t('publishedDone') : state.error.message}
          </ActionResult>
        )}
      </form>
      {published && (
        <form action={unpublish} className="form" data-testid="facility-unpublish-form">
          <input type="hidden" name="facilityId" value={facilityId} />
          <div>
            <Button type="submit" variant="danger" loading={unpublishing} data-testid="facility-unpublish">
              {t('unpublish')}
            </Button>
          </div>
        </form>
      )}
      {down && (
        <ActionResult attempt={down.attempt} tone={down.ok ? 'success' : 'error'} testId="facility-unpublish-result">
          {down.ok ? t('unpublishedDone') : down.error.message}
        </ActionResult>
      )}
    </>
  );
}

/** The texts a guest accepts on the booking site: terms and the privacy notice. */
export function BookingSiteTextsForm({
  facility,
}: {
  facility: { id: string; termsText: string; privacyText: string };
}) {
  const t = useTranslations('facilities.site');
  const [state, action, pending] = useActionState(saveFacilityOptionsAction, null);
  const id = useId();
  return (
    <form action={action} noValidate className="form" data-testid="facility-texts-form" key={state?.attempt ?? 0}>
      <input type="hidden" name="facilityId" value={facility.id} />
      {(['termsText', 'privacyText'] as const).map((name) => (
        <ActionTextarea
          key={name}
          state={state}
          id={`${id}-${name}`}
          name={name}
          label={t(`field.${name}`)}
          stored={facility[name]}
          rows={6}
          maxLength={20000}
          data-testid={`facility-${name}`}
        />
      ))}
      <div className="form__submit-row">
        <Button variant="secondary" type="submit" loading={pending} data-testid="facility-texts-save">
          {t('saveTexts')}
        </Button>
      </div>
      {state && (
        <ActionResult attempt={state.attempt} tone={state.ok ? 'success' : 'error'} testId="facility-texts-result">
          {state.ok ? t('textsSaved') : state.error.message}
        </ActionResult>
      )}
    </form>
  );
}
