import { describe, expect, it } from 'vitest';
import { compose, SqlSlice } from './slice.js';
import type { Dialect, SqlRunner } from './sql.js';

const runner: SqlRunner = { all: async () => [], get: async () => undefined, run: async () => 0 };
const dialect = { name: 'sqlite' } as Dialect;

class Greeting extends SqlSlice {
  hello() { return `hello from ${this.dialect.name}`; }
}
class Counting extends SqlSlice {
  async count() { return (await this.sql.run('delete from x')) + 1; }
}

describe('compose', () => {
  it('puts every slice method on the target, each reading the one runner and dialect it was built with', async () => {
    class Whole extends SqlSlice {}
    compose(Whole, [Greeting, Counting]);
    const whole = new Whole(runner, dialect) as Whole & Greeting & Counting;
    expect(whole.hello()).toBe('hello from sqlite');
    expect(await whole.count()).toBe(1);
    expect(Object.getOwnPropertyNames(Whole.prototype).sort()).toEqual(['constructor', 'count', 'hello']);
  });

  it('refuses two slices that define one name, and a slice that would replace the target\'s own method', () => {
    class Again extends SqlSlice { hello() { return 'again'; } }
    class Whole extends SqlSlice {}
    expect(() => compose(Whole, [Greeting, Again])).toThrow('Again.hello is already defined by Greeting');
    class Own extends SqlSlice { hello() { return 'own'; } }
    expect(() => compose(Own, [Greeting])).toThrow('Greeting.hello is already defined by Own');
  });
});
