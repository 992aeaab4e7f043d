import { describe, it, expect } from 'vitest';
import { isLocale, negotiateLocale, translator } from './locale';

describe('negotiateLocale', () => {
  it('defaults to English for a missing or empty header', () => {
    expect(negotiateLocale(undefined)).toBe('en');
    expect(negotiateLocale(null)).toBe('en');
    expect(negotiateLocale('')).toBe('en');
    expect(negotiateLocale('   ')).toBe('en');
  });

  it('picks Japanese for ja and ja-JP', () => {
    expect(negotiateLocale('ja')).toBe('ja');
    expect(negotiateLocale('ja-JP')).toBe('ja');
    expect(negotiateLocale('JA-jp,ja;q=0.9')).toBe('ja');
  });

  it('follows q-values rather than order', () => {
    expect(negotiateLocale('en;q=0.5,ja;q=0.8')).toBe('ja');
    expect(negotiateLocale('ja;q=0.4,en-US;q=0.9')).toBe('en');
    expect(negotiateLocale('ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('ja');
    expect(negotiateLocale('en-US,en;q=0.9,ja;q=0.8')).toBe('en');
  });

  it('breaks a q-value tie by order', () => {
    expect(negotiateLocale('ja,en')).toBe('ja');
    expect(negotiateLocale('en,ja')).toBe('en');
  });

  it('prefers Japanese when English is absent or refused', () => {
    expect(negotiateLocale('fr-FR,ja;q=0.3')).toBe('ja');
    expect(negotiateLocale('ja;q=0.2,en;q=0')).toBe('ja');
  });

  it('falls back to English for unsupported or refused languages', () => {
    expect(negotiateLocale('fr-FR,de;q=0.9')).toBe('en');
    expect(negotiateLocale('ja;q=0')).toBe('en');
    expect(negotiateLocale('*')).toBe('en');
  });

  it('does not let a malformed weight win', () => {
    expect(negotiateLocale('ja;q=2,en;q=0.5')).toBe('en');
    expect(negotiateLocale('ja;q=abc')).toBe('en');
  });

  it('does not confuse other tags starting with the same letters', () => {
    expect(negotiateLocale('jam,en;q=0.1')).toBe('en');
  });
});

describe('translator', () => {
  it('fills ICU placeholders in each language', () => {
    expect(translator('en')('header.signedInAs', { name: 'Aiko' })).toBe('Signed in as Aiko');
    expect(translator('ja')('header.signedInAs', { name: 'Aiko' })).toBe('Aiko としてサインイン中');
  });

  it('is built once per locale, and a reused one still answers each call with its own values', () => {
    expect(translator('en')).toBe(translator('en'));
    expect(translator('ja')).not.toBe(translator('en'));
    expect(translator('en')('header.signedInAs', { name: 'Ben' })).toBe('Signed in as Ben');
    expect(translator('en')('header.signedInAs', { name: 'Aiko' })).toBe('Signed in as Aiko');
  });

  it('names the tombstone of a deleted guest', () => {
    expect(translator('en')('guest.deletedAccount')).toBe('Deleted account');
    expect(translator('ja')('guest.deletedAccount')).toBe('削除されたアカウント');
  });

  it('validates locales', () => {
    expect(isLocale('ja')).toBe(true);
    expect(isLocale('fr')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});
