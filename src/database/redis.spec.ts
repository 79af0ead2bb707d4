import { redisAddress } from '../config/config.js';
import { createRedis, describeRedisError } from './redis.js';

describe('Redis addresses in messages', () => {
  it('names host and port without the password', () => {
    expect(redisAddress('redis://:pw@10.0.0.5:6380/2')).toBe('10.0.0.5:6380');
    expect(redisAddress('redis://localhost')).toBe('localhost:6379');
    expect(redisAddress('not a url')).toBe('an address that is not a URL');
  });

  it('says which variable and address a failed command was for, in words', async () => {
    const redis = createRedis('redis://:pw@127.0.0.1:1', 'test');
    try {
      const error = await redis.get('x').then(
        () => undefined,
        (e: unknown) => e,
      );
      const text = describeRedisError(redis, error);
      expect(text).toBe('Redis at 127.0.0.1:1 (REDIS_URL) does not answer: no connection');
    } finally {
      redis.disconnect();
    }
  });
});
