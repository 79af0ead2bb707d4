import request from 'supertest';
import type { Request, Response } from 'express';
import { BodyBytesAdapter, sendChunks } from './body-bytes.adapter.js';
import { JsonChunks } from './json-body.js';

describe('sendChunks', () => {
  // Pieces as JsonBody writes them: envelope text around kept payloads, some of them not ASCII.
  const pieces = [
    '{"events":[',
    '{"id":1,"title":"Őszi vásár – Kolozsvár"}',
    ',',
    '{"id":2}',
    ']}',
  ];
  const chunks = () => new JsonChunks(pieces.map((piece) => Buffer.from(piece)));

  const app = new BodyBytesAdapter().getInstance<import('express').Express>();
  app.set('etag', 'strong');
  // The same answer twice: joined and sent by Express, and in pieces by sendChunks.
  app.get('/joined', (_req: Request, res: Response) => {
    res.type('json');
    res.send(chunks().join());
  });
  app.get('/pieces', (_req: Request, res: Response) => {
    res.type('json');
    sendChunks(res, chunks());
  });

  const pick = (res: request.Response) => ({
    status: res.status,
    type: res.headers['content-type'],
    length: res.headers['content-length'],
    etag: res.headers.etag,
    body: res.text,
  });

  it('answers what res.send of the joined bytes answers: body, length, type and ETag', async () => {
    const joined = await request(app).get('/joined');
    const inPieces = await request(app).get('/pieces');
    expect(pick(inPieces)).toEqual(pick(joined));
    expect(inPieces.text).toBe(pieces.join(''));
    expect(Number(inPieces.headers['content-length'])).toBe(Buffer.byteLength(pieces.join('')));
  });

  it('answers 304 without a body to a fresh conditional request, as res.send does', async () => {
    const { headers } = await request(app).get('/pieces');
    for (const path of ['/joined', '/pieces']) {
      const res = await request(app).get(path).set('If-None-Match', headers.etag);
      expect(res.status).toBe(304);
      expect(res.text).toBe('');
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers['content-length']).toBeUndefined();
    }
  });

  it('sends no body to HEAD, with the headers of GET', async () => {
    const joined = await request(app).head('/joined');
    const inPieces = await request(app).head('/pieces');
    expect(pick(inPieces)).toEqual(pick(joined));
    expect(inPieces.text).toBeUndefined();
  });
});
