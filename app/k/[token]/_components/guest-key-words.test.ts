import { describe, expect, it } from 'vitest';
import { LOCALES, translator } from '@/lib/i18n/locale';
import { fill } from '@/lib/i18n/slots';
import { guestKeyWords } from './guest-key-words';

describe('guestKeyWords', () => {
  for (const locale of LOCALES) {
    const t = translator(locale);
    const words = guestKeyWords(t);

    it(`translates every word (${locale})`, () => {
      const all = [...Object.values(words.status), ...Object.values(words).filter((w) => typeof w === 'string')];
      for (const word of all) expect(word.trim()).not.toBe('');
      expect(words.status.ready).toBe(t('guest.ready'));
    });

    it(`fills its slots to exactly what next-intl writes (${locale})`, () => {
      expect(fill(words.pinAria, { digits: '1 2 3 4 5 6' })).toBe(t('guest.pinAria', { digits: '1 2 3 4 5 6' }));
      expect(fill(words.selfService.checkInOpensStatus, { time: '30 Nov 2026, 15:00' })).toBe(
        t('guestHome.checkInOpensStatus', { time: '30 Nov 2026, 15:00' }),
      );
      for (const word of Object.values(words.selfService.checkInRefused)) expect(word.trim()).not.toBe('');
      expect(fill(words.worksFromStatus, { time: '30 Nov 2026, 15:00' })).toBe(
        t('guestStay.worksFromStatus', { time: '30 Nov 2026, 15:00' }),
      );
    });
  }
});
