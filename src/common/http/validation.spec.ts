import {
  getMetadataStorage,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  registerDecorator,
  validate,
} from 'class-validator';
import type { ApiError } from '../errors/api-error.js';
import { createValidationPipe, memoizeValidationMetadata } from './validation.js';

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

/** The pipe hands class-validator only the rules an instance needs: the same answers, less work. */
describe('the validation pipe on optional fields left out', () => {
  class Dto {
    @IsDefined({ message: 'missing' })
    @IsString()
    title!: unknown;

    @IsOptional()
    @IsInt()
    count?: unknown;

    @IsOptional()
    @IsString()
    note?: unknown;

    @IsOptional()
    @IsDefined({ message: 'missing' })
    @IsString()
    always?: unknown;
  }
  const body = (value: object) =>
    createValidationPipe().transform(value, { type: 'body', metatype: Dto });
  const refusal = async (value: object) => {
    try {
      await body(value);
      return null;
    } catch (error) {
      const { code, data } = error as ApiError;
      return { code, data };
    }
  };

  it('validates what is sent, skips the optional fields not sent, requires the others', async () => {
    expect(await refusal({ title: 't', always: 'a' })).toBeNull();
    expect(await refusal({ title: 't', always: 'a', count: 'x' })).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { count: { key: 'validation.invalid' } } },
    });
    expect(await refusal({ title: 't', always: 'a', note: 3 })).toMatchObject({
      data: { params: { note: { key: 'validation.invalid' } } },
    });
    // @IsOptional() wins over @IsDefined() in class-validator: the property keeps its rules
    // here, and is skipped as before.
    expect(await refusal({ title: 't' })).toBeNull();
    expect(await refusal({ title: 't', always: 3 })).toMatchObject({
      data: { params: { always: { key: 'validation.invalid' } } },
    });
    expect(await refusal({ count: 1, always: 'a' })).toMatchObject({
      data: { params: { title: expect.anything() } },
    });
  });

  it('keeps the fields not sent as the class declares them, and drops undeclared ones', async () => {
    const dto = (await body({ title: 't', always: 'a', other: 1 })) as Record<string, unknown>;
    expect(dto).toBeInstanceOf(Dto);
    expect(Object.keys(dto).sort()).toEqual(['always', 'count', 'note', 'title']);
    expect(dto.count).toBeUndefined();
  });

  it('asks class-validator for fewer rules only while validating an instance', async () => {
    const storage = getMetadataStorage();
    const grouped = vi.spyOn(storage, 'groupByPropertyName');
    await body({ title: 't', always: 'a', note: 'n' });
    const asked = grouped.mock.calls.map(([rules]) => [
      ...new Set(rules.map((m) => m.propertyName)),
    ]);
    grouped.mockRestore();
    // The unsent `count` is left out; `always` (@IsDefined too) keeps its rules.
    expect(asked).toEqual([['title', 'note', 'always']]);
    // Outside a validation: every rule of the class.
    const rules = storage.getTargetValidationMetadatas(
      Dto,
      undefined as unknown as string,
      false,
      false,
    );
    expect(new Set(rules.map((m) => m.propertyName))).toEqual(
      new Set(['title', 'count', 'note', 'always']),
    );
  });
});
