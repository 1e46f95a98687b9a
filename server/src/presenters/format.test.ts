import { describe, expect, it } from 'vitest';
import { maskUsername } from './format.js';

describe('maskUsername', () => {
  it('shows at most a third of the username (first, then last character) with always three asterisks', () => {
    expect(maskUsername('ab')).toBe('***');
    expect(maskUsername('abc')).toBe('a***');
    expect(maskUsername('abcde')).toBe('a***');
    expect(maskUsername('abcdef')).toBe('a***f');
    expect(maskUsername('alice_k')).toBe('a***k');
    expect(maskUsername('a'.repeat(31) + 'z')).toBe('a***z');
    expect(maskUsername('')).toBe('***');
  });

  it('never shows more than a third, whatever the length', () => {
    for (let n = 0; n <= 40; n++) {
      const name = 'abcdefghijklmnopqrstuvwxyz0123456789_.-x'.slice(0, n);
      const mask = maskUsername(name);
      const shown = mask.replace('***', '');
      expect(mask.split('*').length - 1, name).toBe(3);
      expect(shown.length, name).toBeLessThanOrEqual(Math.floor(n / 3));
    }
  });
});
