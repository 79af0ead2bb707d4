import { IsInt, IsString, registerDecorator, validate } from 'class-validator';
import { memoizeValidationMetadata } from './validation.js';

/** What the pipe's kept metadata must not change: every rule of a class, its ancestors' too. */
describe('memoizeValidationMetadata', () => {
  const failed = async (value: object) =>
    (await validate(value)).map((e) => `${e.property}:${Object.keys(e.constraints ?? {}).join()}`);

  it('validates as before, classes whose rules register after it included', async () => {
    class Before {
      @IsInt()
      count!: unknown;
    }
    memoizeValidationMetadata();
    memoizeValidationMetadata(); // once per storage, however often asked
    expect(await failed(Object.assign(new Before(), { count: 'x' }))).toEqual(['count:isInt']);
    expect(await failed(Object.assign(new Before(), { count: 1 }))).toEqual([]);

    // Defined after the first answers were kept: its rules and its ancestor's count.
    class After extends Before {
      @IsString()
      name!: unknown;
    }
    expect((await failed(Object.assign(new After(), { count: 'x', name: 2 }))).sort()).toEqual([
      'count:isInt',
      'name:isString',
    ]);
    // The ancestor keeps its own rules only.
    expect(await failed(Object.assign(new Before(), { count: 'x', name: 2 }))).toEqual([
      'count:isInt',
    ]);

    // A rule registered on a class already validated (as a decorator applied late does): its
    // kept answer goes, and the rule counts for it and for the class inheriting from it.
    registerDecorator({
      name: 'isOk',
      target: Before,
      propertyName: 'extra',
      validator: { validate: (value: unknown) => value === 'ok' },
    });
    expect(await failed(Object.assign(new Before(), { count: 1, extra: 'no' }))).toEqual([
      'extra:isOk',
    ]);
    expect(await failed(Object.assign(new After(), { count: 1, name: 'n', extra: 'ok' }))).toEqual(
      [],
    );
    expect(await failed(Object.assign(new After(), { count: 1, name: 'n', extra: 'no' }))).toEqual([
      'extra:isOk',
    ]);
  });
});
