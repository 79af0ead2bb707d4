import { useAppPerTest } from '../helpers/app-fixture.js';

// /health says whether REDIS_URL is in use, where it points (no password) and whether it
// answers: an operator sees a wrong address there as well as in the warnings.
describe('/health and Redis (e2e)', () => {
  const start = useAppPerTest();

  it('says Redis is off without REDIS_URL', async () => {
    const { http } = await start();
    const res = await http().get('/health').expect(200);
    expect(res.body.redis).toEqual({ status: 'off' });
  });

  it('names the address REDIS_URL gives, and that it does not answer', async () => {
    // Port 1 on loopback: nothing listens there.
    const { http } = await start({ env: { REDIS_URL: 'redis://:secret@127.0.0.1:1' } });
    const res = await http().get('/health').expect(200);
    expect(res.body.redis).toEqual({ status: 'down', address: '127.0.0.1:1' });
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });
});
