import type { ComponentProps, FunctionComponent } from 'react';
import type * as Templates from './mail-templates';

type TemplateName = 'GuestLinkEmail' | 'LinkEmail' | 'CodeEmail';

/**
 * One of the mail templates (mail-templates.tsx) rendered to HTML and plain text. The templates and React Email
 * load with the first mail a process sends, not when it starts: a worker's start and a web route that only queues a
 * message skip their second of CPU (docs/PERFORMANCE.md, First start).
 */
export async function renderMailTemplate<N extends TemplateName>(
  name: N,
  props: ComponentProps<(typeof Templates)[N]>,
): Promise<{ html: string; text: string }> {
  const [templates, { createElement }] = await Promise.all([import('./mail-templates'), import('react')]);
  const template = templates[name] as FunctionComponent<object>;
  return templates.renderMail(createElement(template, props as object));
}
