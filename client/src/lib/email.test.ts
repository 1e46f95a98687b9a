import { describe, expect, it } from 'vitest';
import { EMAIL_INVALID, emailProblem, normaliseEmail } from './email';

describe('email addresses as the forms check them', () => {
  it('takes an address as people type it, spaces around it trimmed', () => {
    expect(emailProblem('asha@example.com')).toBeNull();
    expect(emailProblem('  Asha.Rao+bids@mail.example.co.in ')).toBeNull();
    expect(normaliseEmail('  asha@example.com ')).toBe('asha@example.com');
  });

  it('refuses what the server would refuse, in plain words', () => {
    for (const bad of ['', 'asha', 'asha@', '@example.com', 'asha@example', 'asha rao@example.com', 'asha@@example.com', 'asha@example.c']) {
      expect(emailProblem(bad), bad).toBe(EMAIL_INVALID);
    }
    expect(emailProblem(`${'a'.repeat(250)}@example.com`)).toBe(EMAIL_INVALID);
  });
});
