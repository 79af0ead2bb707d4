import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { NAMESPACE } from '../src/common/http/links.js';
import { openApiContractOf } from './helpers/openapi-contract.js';
import { useTestApp } from './helpers/app-fixture.js';

/**
 * Routes under the namespace that the document lists without a response schema (Swagger
 * documents a probe's status only).
 */
@Controller(NAMESPACE)
class ContractProbeController {
  /** An error without a documented schema must still be the WordPress error body. */
  @Post('_contract_probe/error')
  @HttpCode(400)
  badError() {
    return { code: 'rest_invalid_param', data: { status: 400 } };
  }

  /** A success without a documented schema: not judged. */
  @Get('_contract_probe/ok')
  ok() {
    return { anything: true };
  }
}

describe('every e2e response is judged by the OpenAPI document (test/helpers/openapi-contract.ts)', () => {
  const { app, http, users } = useTestApp({ controllers: [ContractProbeController] });

  it('passes documented answers of every kind', async () => {
    const created = await http()
      .post(`/${NAMESPACE}/events`)
      .set('Authorization', users.editor.header)
      .send({ title: 'Concert', start_date: '2030-01-01 10:00', end_date: '2030-01-01 12:00' })
      .expect(201);
    await http().get(`/hu/${NAMESPACE}/events/${created.body.id}`).expect(200);
    await http().get(`/${NAMESPACE}/events`).query({ start_date: '2029-01-01' }).expect(200);
    await http().get(`/${NAMESPACE}/events/999999`).expect(404);
    await http().get(`/${NAMESPACE}/nowhere`).expect(404);
  });

  it('refuses a body that contradicts the documented schema, naming where and what', async () => {
    const created = await http()
      .post(`/${NAMESPACE}/events`)
      .set('Authorization', users.editor.header)
      .send({ title: 'Talk', start_date: '2030-02-01 10:00', end_date: '2030-02-01 11:00' })
      .expect(201);
    const contract = openApiContractOf(app())!;
    const url = `http://127.0.0.1/ro/${NAMESPACE}/events/${created.body.id}`;
    const json = 'application/json; charset=UTF-8';
    expect(contract.check('GET', url, 200, json, created.body)).toBeUndefined();
    const wrong = { ...created.body, id: 'x', all_day: 'no', venue: { venue: 5 } };
    const error = contract.check('GET', url, 200, json, wrong);
    expect(error?.message).toMatch(/GET \/events\/\{id\} 200 body does not match/);
    expect(error?.message).toMatch(/\/id must be integer \(is "x"\)/);
    expect(error?.message).toMatch(/\/all_day must be boolean,null/);
    expect(error?.message).toMatch(/\/venue\/venue/);
    // The plugin's documented 403 on a read is the error body too.
    expect(contract.check('GET', url, 403, json, { code: 'x', message: 'y' })?.message).toMatch(
      /must have required property 'data'/,
    );
    // A JSON operation answering something else.
    expect(contract.check('GET', url, 200, 'text/html', '<p>')?.message).toMatch(/text\/html/);
  });

  it('fails a request whose error body is not the WordPress error shape', async () => {
    await expect(http().post(`/${NAMESPACE}/_contract_probe/error`).expect(400)).rejects.toThrow(
      /OpenAPI contract: the POST \/_contract_probe\/error 400 body does not match .*must have required property 'message'/,
    );
  });

  it('leaves successes that the document gives no schema alone', async () => {
    await http().get(`/${NAMESPACE}/_contract_probe/ok`).expect(200, { anything: true });
  });

  it('reports the expectation that failed first, not the contract', async () => {
    await expect(http().post(`/${NAMESPACE}/_contract_probe/error`).expect(201)).rejects.toThrow(
      /expected 201 "Created", got 400/,
    );
  });
});
