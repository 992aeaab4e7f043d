import type { Metadata } from 'next';
import { SignInForm } from '@/app/sign-in/_components/sign-in-form';
import { ClientMessages } from '@/components/client-messages';
import { SiteHeader } from '@/components/site-header';
import { getT } from '@/app/_server/i18n';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('signIn.title') };
}

type Props = { searchParams: Promise<{ callbackUrl?: string | string[] }> };

/** Staff sign-in; the form returns to `callbackUrl` when it is a path on this site. */
export default async function SignInPage({ searchParams }: Props) {
  const [t, { callbackUrl }] = await Promise.all([getT(), searchParams]);
  return (
    <>
      <SiteHeader staff={null} showAuthLink={false} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card">
          <h1>{t('signIn.title')}</h1>
          <p className="muted">{t('signIn.intro')}</p>
          <ClientMessages only={['signIn']}>
            <SignInForm callbackUrl={typeof callbackUrl === 'string' ? callbackUrl : undefined} />
          </ClientMessages>
        </div>
      </main>
    </>
  );
}
