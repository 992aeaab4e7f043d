// React Email's components one package each: its all-in-one package also loads a code highlighter (Prism) that no
// mail here uses, a third of a second of every worker's start.
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { render } from '@react-email/render';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { ReactElement } from 'react';

// The mails as React Email components. They take their words already translated (lib/messages/
// compose-message.ts, from the `mail` namespace), so they render the same in any process. A guest's
// mail carries the link to the key page, never a PIN.

const page = { backgroundColor: '#f4f5f7', fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif' };
const card = {
  backgroundColor: '#ffffff',
  borderRadius: '8px',
  margin: '24px auto',
  maxWidth: '560px',
  padding: '24px',
};
const text = { color: '#1f2933', fontSize: '15px', lineHeight: '22px' };
const muted = { color: '#52606d', fontSize: '13px', lineHeight: '19px' };
const button = {
  backgroundColor: '#1d4ed8',
  borderRadius: '6px',
  color: '#ffffff',
  fontSize: '16px',
  fontWeight: 600,
  padding: '12px 20px',
  textDecoration: 'none',
};

export type GuestMailWords = {
  preview: string;
  greeting: string;
  intro: string;
  cta: string;
  pinNote: string;
  linkFallback: string;
  icsNote: string;
  privateNote: string;
  footer: string;
};

/** The guest's link to their key page: a new booking (`key_link`) or a changed stay (`stay_changed`). */
export function GuestLinkEmail({ lang, words, url }: { lang: string; words: GuestMailWords; url: string }) {
  return (
    <Html lang={lang}>
      <Head />
      <Preview>{words.preview}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Text style={text}>{words.greeting}</Text>
          <Text style={text}>{words.intro}</Text>
          <Section style={{ margin: '24px 0' }}>
            <Button href={url} style={button}>
              {words.cta}
            </Button>
          </Section>
          <Text style={text}>{words.pinNote}</Text>
          <Text style={muted}>
            {words.linkFallback}{' '}
            <Link href={url} style={{ wordBreak: 'break-all' }}>
              {url}
            </Link>
          </Text>
          <Text style={muted}>{words.icsNote}</Text>
          <Hr />
          <Text style={muted}>{words.privateNote}</Text>
          <Text style={muted}>{words.footer}</Text>
        </Container>
      </Body>
    </Html>
  );
}

/** A manager's alert: an incident opened, or reached 5 or 20 occurrences. */
/**
 * A mail that says one thing and links to one page: a manager's incident alert, a staff invitation, a
 * password reset. `notes` come under the link, before the footer.
 */
export function LinkEmail({
  lang,
  heading,
  cta,
  url,
  notes = [],
  footer,
}: {
  lang: string;
  heading: string;
  cta: string;
  url: string;
  notes?: string[];
  footer: string;
}) {
  return (
    <Html lang={lang}>
      <Head />
      <Preview>{heading}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Text style={text}>{heading}</Text>
          <Section style={{ margin: '24px 0' }}>
            <Button href={url} style={button}>
              {cta}
            </Button>
          </Section>
          <Text style={muted}>
            <Link href={url}>{url}</Link>
          </Text>
          {notes.map((note) => (
            <Text key={note} style={text}>
              {note}
            </Text>
          ))}
          <Hr />
          <Text style={muted}>{footer}</Text>
        </Container>
      </Body>
    </Html>
  );
}

/** A booking site's emailed code: large, alone on its line, with what it is for and when it ends. */
export function CodeEmail({
  lang,
  heading,
  code,
  notes,
  footer,
}: {
  lang: string;
  heading: string;
  code: string;
  notes: string[];
  footer: string;
}) {
  return (
    <Html lang={lang}>
      <Head />
      <Preview>{heading}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Text style={text}>{heading}</Text>
          <Text style={{ ...text, fontSize: '32px', lineHeight: '40px', fontWeight: 700, letterSpacing: '6px' }}>
            {code}
          </Text>
          {notes.map((note) => (
            <Text key={note} style={muted}>
              {note}
            </Text>
          ))}
          <Hr />
          <Text style={muted}>{footer}</Text>
        </Container>
      </Body>
    </Html>
  );
}

/** A mail's HTML and its plain-text alternative. */
export async function renderMail(element: ReactElement): Promise<{ html: string; text: string }> {
  const [html, plain] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { html, text: plain };
}
