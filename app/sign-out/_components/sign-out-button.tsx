'use client';

import { useState } from 'react';
import { signOut } from 'next-auth/react';
import { Button } from '@/components/ui/button';

type Props = { label: string; pendingLabel: string };

/** Ends the next-auth session and lands on the sign-in page. */
export function SignOutButton({ label, pendingLabel }: Props) {
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
      {pending ? pendingLabel : label}
    </Button>
  );
}
