import { Body, Controller, Post } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsInt, IsOptional, IsString, MinLength } from 'class-validator';
import { DataSource } from 'typeorm';
import { Auth } from '../src/auth/auth.decorator.js';
import type { Actor } from '../src/common/actor.js';
import { canManageTerms } from '../src/auth/post-policy.js';
import { forbidden } from '../src/common/errors/api-error.js';
import { ToInteger } from '../src/common/http/transforms.js';
import { MISSING, typeMessage } from '../src/common/http/validation.js';
import { basic } from './helpers/auth.js';
import { withExpectedLogs } from './helpers/expected-logs.js';
import { useTestApp } from './helpers/app-fixture.js';
import { FAILING, FailingController } from './helpers/failing-routes.js';
import { wpError } from './helpers/wp-error.js';

class ProbeDto {
  @ApiProperty()
  @IsDefined({ message: MISSING })
  @IsString({ message: 'invalid' })
  @MinLength(1, { message: 'invalid' })
  title!: string;

  @ApiProperty({ required: false })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: typeMessage('integer') })
  count?: number;
}

/** A protected route of the shape resource modules use: validate first, then authorize. */
@Controller('cal/events/v1/_probe')
class ProbeController {
  @Post()
  create(@Body() body: ProbeDto, @Auth() actor: Actor) {
    if (!canManageTerms(actor)) throw forbidden(!!actor.user);
    return { ok: true, title: body.title, user: actor.user?.login ?? null };
  }
}

describe('foundation (e2e)', () => {
  const { app, http, users } = useTestApp({ controllers: [ProbeController, FailingController] });

  describe('namespace index', () => {
    it('lists its own route and /doc with localized args and links', async () => {
      const res = await http().get('/cal/events/v1').expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(res.body.namespace).toBe('cal/events/v1');
      expect(Object.keys(res.body.routes).slice(0, 2)).toEqual([
        '/cal/events/v1',
        '/cal/events/v1/doc',
      ]);
      const root = res.body.routes['/cal/events/v1'];
      expect(root).toMatchObject({
        namespace: 'cal/events/v1',
        methods: ['GET'],
        _links: { self: [{ href: 'http://cal.test/cal/events/v1' }] },
      });
      expect(root.endpoints[0].args).toEqual({
        // As WordPress registers its index route (BEHAVIOR §2): defaults only, no types.
        namespace: { default: 'cal/events/v1', required: false },
        context: { default: 'view', required: false },
        i18n_language: expect.objectContaining({
          type: 'string',
          enum: ['en', 'hu', 'ro'],
          required: false,
        }),
      });
      expect(Object.keys(root.endpoints[0].args.i18n_language)).toEqual([
        'description',
        'type',
        'enum',
        'required',
      ]);
      expect(res.body._links).toEqual({ up: [{ href: 'http://cal.test/' }] });
    });

    it('localizes descriptions and keeps the prefix in links', async () => {
      const en = await http().get('/cal/events/v1').expect(200);
      const hu = await http().get('/hu/cal/events/v1').expect(200);
      const enArg = en.body.routes['/cal/events/v1'].endpoints[0].args.i18n_language;
      const huArg = hu.body.routes['/cal/events/v1'].endpoints[0].args.i18n_language;
      expect(huArg.description).not.toEqual(enArg.description);
      expect(huArg.description).toMatch(/nyelv/);
      expect(hu.body.routes['/cal/events/v1']._links.self[0].href).toBe(
        'http://cal.test/hu/cal/events/v1',
      );
    });

    it('answers another namespace with rest_invalid_namespace', async () => {
      const res = await http().get('/cal/events/v1?namespace=wp/v2').expect(404);
      expect(res.body).toEqual(
        wpError(404, 'rest_invalid_namespace', 'The specified namespace could not be found.'),
      );
    });

    it('accepts context and the default namespace', async () => {
      await http().get('/cal/events/v1?context=edit&namespace=cal/events/v1').expect(200);
    });
  });

  describe('languages', () => {
    it('selects the language by path prefix', async () => {
      const hu = await http().get('/hu/cal/events/v1/nothing-here').expect(404);
      expect(hu.body.message).toBe(
        'Nem található az URL-nek és a kérés metódusának megfelelő útvonal.',
      );
      const ro = await http().get('/ro/cal/events/v1/nothing-here').expect(404);
      expect(ro.body.message).toBe(
        'Nu a fost găsită nicio rută care să corespundă URL-ului și metodei cererii.',
      );
      const en = await http().get('/en/cal/events/v1/nothing-here').expect(404);
      expect(en.body.message).toBe('No route was found matching the URL and request method.');
    });

    it('lets i18n_language (query) win over the prefix', async () => {
      const res = await http().get('/hu/cal/events/v1?namespace=x&i18n_language=ro').expect(404);
      expect(res.body.message).toBe('Spațiul de nume specificat nu a putut fi găsit.');
    });

    it('reads i18n_language from a JSON body too', async () => {
      const res = await http()
        .post('/cal/events/v1/_probe')
        .send({ i18n_language: 'hu' })
        .expect(400);
      expect(res.body.message).toBe('Hiányzó paraméter(ek): title');
    });

    it('rejects an unsupported i18n_language with a localized 400', async () => {
      const res = await http().get('/hu/cal/events/v1?i18n_language=de').expect(400);
      expect(res.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Érvénytelen paraméter(ek): i18n_language',
        data: {
          status: 400,
          params: { i18n_language: 'Az i18n_language értéke nem en, hu vagy ro.' },
          details: [],
        },
      });
      const en = await http().get('/cal/events/v1?i18n_language=xx').expect(400);
      expect(en.body.data.params.i18n_language).toBe('i18n_language is not one of en, hu, and ro.');
    });

    it('does not take a prefix that is only the start of a segment', async () => {
      await http().get('/hungary/cal/events/v1').expect(404);
    });
  });

  describe('errors', () => {
    it('answers unknown routes and wrong methods with rest_no_route', async () => {
      const res = await http().get('/cal/events/v1/unknown').expect(404);
      expect(res.body).toEqual(
        wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.'),
      );
      const wrong = await http().delete('/cal/events/v1').expect(404);
      expect(wrong.body.code).toBe('rest_no_route');
      expect(wrong.headers['content-type']).toBe('application/json; charset=UTF-8');
    });

    it('answers malformed JSON with rest_invalid_json', async () => {
      const res = await http()
        .post('/cal/events/v1/_probe')
        .set('Content-Type', 'application/json')
        .send('{"title": ')
        .expect(400);
      expect(res.body.code).toBe('rest_invalid_json');
      expect(res.body.message).toBe('Invalid JSON body passed.');
      expect(res.body.data.status).toBe(400);
    });

    it('reports missing parameters as rest_missing_callback_param with a params map', async () => {
      const res = await http().post('/cal/events/v1/_probe').send({}).expect(400);
      expect(res.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): title',
        data: { status: 400, params: { title: 'Missing parameter.' } },
      });
    });

    it('reports invalid values as rest_invalid_param with reasons and type details', async () => {
      const res = await http()
        .post('/cal/events/v1/_probe')
        .send({ title: '', count: 'many' })
        .expect(400);
      expect(res.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): title, count',
        data: {
          status: 400,
          params: { title: 'Invalid parameter.', count: 'count is not of type integer.' },
          details: {
            count: {
              code: 'rest_invalid_type',
              message: 'count is not of type integer.',
              data: { param: 'count' },
            },
          },
        },
      });
    });

    it('coerces integral strings and ignores undeclared parameters', async () => {
      const res = await http()
        .post('/cal/events/v1/_probe')
        .set('Authorization', users.editor.header)
        .send({ title: 'x', count: '5.0', whatever: 1 })
        .expect(201);
      expect(res.body).toEqual({ ok: true, title: 'x', user: 'editor' });
    });

    it('never leaks internals on an unexpected error (500 rest_internal_error)', async () => {
      // The error is logged, with its stack, for the operator: captured here, not printed.
      const { result: res, lines } = await withExpectedLogs(() => http().get(`${FAILING}/boom`));
      expect(res.status).toBe(500);
      expect(lines).toEqual([expect.stringMatching(/^ERROR WpErrorFilter: .*secret/)]);
      expect(res.body).toEqual(
        wpError(500, 'rest_internal_error', 'An unexpected error occurred.'),
      );
      expect(JSON.stringify(res.body)).not.toContain('secret');
    });

    it('answers a database outage with 503 rest_db_unavailable', async () => {
      const { result: res, lines } = await withExpectedLogs(() => http().get(`${FAILING}/db-down`));
      expect(res.status).toBe(503);
      expect(lines).toEqual([
        'ERROR WpErrorFilter: database unavailable: connect ECONNREFUSED 127.0.0.1:3306',
      ]);
      expect(res.body.code).toBe('rest_db_unavailable');
    });
  });

  describe('authentication and capabilities', () => {
    it('validates parameters before permissions (anonymous invalid → 400)', async () => {
      await http().post('/cal/events/v1/_probe').send({}).expect(400);
    });

    it('answers anonymous callers of a protected route with 401 rest_forbidden', async () => {
      const res = await http().post('/cal/events/v1/_probe').send({ title: 'x' }).expect(401);
      expect(res.body).toEqual(
        wpError(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.'),
      );
    });

    it.each([
      ['administrator', 201],
      ['editor', 201],
      ['author', 403],
      ['contributor', 403],
      ['subscriber', 403],
    ] as const)('gives a %s %i on a term-management route', async (role, status) => {
      const res = await http()
        .post('/cal/events/v1/_probe')
        .set('Authorization', users[role].header)
        .send({ title: 'x' })
        .expect(status);
      if (status === 403) expect(res.body.code).toBe('rest_forbidden');
    });

    it('answers wrong credentials with the same 401 for unknown logins and wrong passwords', async () => {
      const unknown = await http()
        .get('/cal/events/v1')
        .set('Authorization', basic('nobody', 'secret'))
        .expect(401);
      const wrong = await http()
        .get('/cal/events/v1')
        .set('Authorization', basic('editor', 'wrong password'))
        .expect(401);
      expect(unknown.body).toEqual(wrong.body);
      expect(wrong.body).toEqual(
        wpError(
          401,
          'incorrect_password',
          'The provided password is an invalid application password.',
        ),
      );
    });

    it('rejects a malformed Authorization header with 401 even on public routes', async () => {
      await http().get('/cal/events/v1').set('Authorization', 'Basic !!!').expect(401);
      await http().get('/cal/events/v1').set('Authorization', 'Bearer abc').expect(401);
    });

    it('localizes the 401 message', async () => {
      const res = await http()
        .get('/ro/cal/events/v1')
        .set('Authorization', basic('nobody', 'x'))
        .expect(401);
      expect(res.body.message).toBe('Parola furnizată este o parolă de aplicație nevalidă.');
    });
  });

  describe('documentation', () => {
    it('serves the OpenAPI document per language with servers on the request base', async () => {
      const en = await http().get('/cal/events/v1/doc').expect(200);
      const hu = await http().get('/hu/cal/events/v1/doc').expect(200);
      expect(en.body.openapi).toBe('3.0.0');
      expect(en.body.info.title).toBe('The Events Calendar REST API');
      expect(hu.body.info.description).not.toBe(en.body.info.description);
      expect(hu.body.servers).toEqual([{ url: 'http://cal.test/hu/cal/events/v1/' }]);
      expect(Object.keys(en.body.paths)).toEqual(expect.arrayContaining(['/doc']));
      const ro = await http().get('/cal/events/v1/doc?i18n_language=ro').expect(200);
      expect(ro.body.info.description).toMatch(/evenimentele viitoare/);
    });

    it('serves a Swagger UI page per language with the document of that language', async () => {
      const page = await http().get('/hu/cal/events/v1/doc/ui').expect(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      const init = await http().get('/hu/cal/events/v1/doc/ui/swagger-ui-init.js').expect(200);
      expect(init.text).toContain('http://cal.test/hu/cal/events/v1/');
      expect(init.text).toContain('A The Events Calendar REST API-ja');
      await http().get('/cal/events/v1/doc/ui').expect(200);
    });
  });

  describe('health', () => {
    it('answers 200 while the database answers', async () => {
      const res = await http().get('/health').expect(200);
      expect(res.body.status).toBe('ok');
    });

    it('answers 503 when the database does not answer', async () => {
      const ds = app().get(DataSource);
      const spy = vi.spyOn(ds, 'query').mockRejectedValue(new Error('connect ECONNREFUSED'));
      try {
        const res = await http().get('/health').expect(503);
        expect(res.body.status).toBe('error');
      } finally {
        spy.mockRestore();
      }
      await http().get('/health').expect(200);
    });
  });
});
