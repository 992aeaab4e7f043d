'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { signOut } from 'next-auth/react';
import { Button } from '@/components/ui/button';

/** Ends the next-auth session and lands on the sign-in page. */
export function SignOutButton() {
  const t = useTranslations('signOut');
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="primary"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: '/sign-in' }).catch(() => setPending(false));
      }}
    >
      {pending ? t('pending') : t('submit')}
    </Button>
  );
}
