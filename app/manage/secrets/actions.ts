'use server';

import { z } from 'zod';
import { SECRET_PROVIDERS, setProviderSecret } from '@/lib/secrets/provider-secrets';
import { readAcuityCredentials } from '@/lib/secrets/acuity-credentials';
import { staffAction } from '@/app/_server/action';

const VALUE_MAX = 4096;

/**
 * Sets or replaces one provider secret of the current tenant, encrypted with the server's data key.
 * The value is never echoed back: after any answer the field is empty.
 */
export const setProviderSecretAction = staffAction(
  {
    name: 'setProviderSecret',
    permission: 'secrets.manage',
    input: z
      .object({
        provider: z.enum(SECRET_PROVIDERS, 'secrets.invalidProvider'),
        // Surrounding spaces are paste accidents; no provider issues a secret that starts or ends with one.
        value: z
          .string('secrets.valueRequired')
          .trim()
          .min(1, 'secrets.valueRequired')
          .max(VALUE_MAX, 'secrets.valueTooLong'),
      })
      // Acuity's credentials have a shape the form can name (the library refuses it too, for the CLI).
      .refine((input) => input.provider !== 'acuity' || readAcuityCredentials(input.value) !== null, {
        path: ['value'],
        message: 'secrets.acuityInvalid',
      }),
    revalidate: { path: '/manage/secrets' },
  },
  async ({ input: { provider, value }, tenantId, actor }) => {
    const { keyVersion } = await setProviderSecret({ tenantId, provider, value, actor });
    return { provider, keyVersion };
  },
);
