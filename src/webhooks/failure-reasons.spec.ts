import {
  failureCode,
  failureText,
  subscriptionFailure,
  subscriptionFailureText,
} from './failure-reasons.js';

/** Stands for i18n: the key and its arguments, so that what is asked for shows. */
const translate = (key: string, args?: Record<string, unknown>) => `${key} ${JSON.stringify(args)}`;

describe('failure reasons', () => {
  it('put a code and its detail into the words of the reader', () => {
    expect(failureText(failureCode('timeout'), translate)).toBe(
      'webhooks.failure.timeout {"detail":""}',
    );
    expect(failureText(failureCode('forbidden-address', '::1'), translate)).toBe(
      'webhooks.failure.forbidden_address {"detail":"::1"}',
    );
    expect(failureText(null, translate)).toBeNull();
  });

  it('answer a text stored before codes as it is', () => {
    expect(failureText('answered 500', translate)).toBe('answered 500');
    expect(subscriptionFailureText('delivery 3 failed: answered 500', translate)).toBe(
      'delivery 3 failed: answered 500',
    );
    expect(subscriptionFailureText('{"x":1}', translate)).toBe('{"x":1}');
  });

  it('tell why a subscription is failing from what it stored', () => {
    const stored = subscriptionFailure({
      delivery: 7,
      type: 'event.created',
      attempts: 8,
      error: failureCode('status', '503'),
    });
    expect(subscriptionFailureText(stored, translate)).toBe(
      `webhooks.failure.subscription ${JSON.stringify({
        delivery: 7,
        type: 'event.created',
        count: 8,
        reason: 'webhooks.failure.status {"detail":"503"}',
      })}`,
    );
    expect(subscriptionFailureText(null, translate)).toBeNull();
  });
});
