import { formatCost, parseCostInput } from './cost.js';

function costOf(input: unknown) {
  const parsed = parseCostInput(input);
  if (!parsed) throw new Error('invalid cost');
  return formatCost(parsed.entries, parsed.symbol, parsed.position, 'Free');
}

describe('cost (BEHAVIOR §4.3)', () => {
  it.each([
    // the example table of §4.3
    ['20$', '20$', '$', 'postfix', ['20']],
    [['0$', '20$', '30$'], 'Free – 30$', '$', 'postfix', ['0', '20', '30']],
    ['$23', '$23', '$', 'prefix', ['23']],
    ['23', '$23', '', '', ['23']],
    ['0', 'Free', '', '', ['0']],
    ['Donation', 'Donation', '', '', ['donation']],
    [undefined, '', '', '', []],
    // further cases
    ['10 - 20', '$10 – $20', '', '', ['10', '20']],
    ['1.250,50', '$1.250,50', '', '', ['1250.50']],
    ['€ 10', '€10', '€', 'prefix', ['10']],
    ['$10 - $20', '$10 – $20', '$', 'prefix', ['10', '20']],
    ['10 - 20 €', '10€ – 20€', '€', 'postfix', ['10', '20']],
    [[30, 10, '20'], '$10 – $30', '', '', ['10', '20', '30']],
    [20, '$20', '', '', ['20']],
    [12.5, '$12.5', '', '', ['12.5']],
    [['10', '10.00'], '$10', '', '', ['10']],
    ['1,5', '$1,5', '', '', ['1.5']],
    ['1.250.000', '$1.250.000', '', '', ['1250000']],
    [['$10', '20€'], '$10 – $20', '', '', ['10', '20']],
    [['10', '$20'], '$10 – $20', '', '', ['10', '20']],
    [['Donation', '5 USD'], '5USD', 'USD', 'postfix', ['donation', '5']],
    [['Free', '0'], 'Free', '', '', ['free', '0']],
    ['<b>15</b>$', '15$', '$', 'postfix', ['15']],
    ['Tom & Jerry', 'Tom &amp; Jerry', '', '', ['tom-jerry']],
    [['', '  ', '<br>'], '', '', '', []],
    [[], '', '', '', []],
    [null, '', '', '', []],
  ])('%j → %j', (input, cost, symbol, position, values) => {
    expect(costOf(input)).toEqual({
      cost,
      cost_details: {
        currency_symbol: symbol,
        currency_code: '',
        currency_position: position,
        values,
      },
    });
  });

  it('keeps the cost_details key order', () => {
    expect(Object.keys(costOf('20$').cost_details)).toEqual([
      'currency_symbol',
      'currency_code',
      'currency_position',
      'values',
    ]);
  });

  it('uses the localized free label', () => {
    expect(formatCost(['0', '5'], '', '', 'Ingyenes').cost).toBe('Ingyenes – $5');
  });

  it('joins several texts without any amount', () => {
    expect(costOf(['Donation', 'Pay at the door']).cost).toBe('Donation, Pay at the door');
  });

  it('rejects values of other types', () => {
    expect(parseCostInput({ a: 1 })).toBeNull();
    expect(parseCostInput(true)).toBeNull();
    expect(parseCostInput(['10', { a: 1 }])).toBeNull();
    expect(parseCostInput([['10']])).toBeNull();
    expect(parseCostInput(Number.NaN)).toBeNull();
  });

  it('stores stripped, trimmed entries and the derived symbol', () => {
    expect(parseCostInput([' <i>20$</i> ', '', '30$'])).toEqual({
      entries: ['20$', '30$'],
      symbol: '$',
      position: 'postfix',
    });
  });
});
