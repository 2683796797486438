import { describe, expect, it } from 'vitest';
import { hoursDisplay, isOpenAt, localMinuteOfWeek, multirangeLiteral, weekIntervals } from './hours.ts';

describe('hours', () => {
  it('turns regular hours into minutes of the week, wrapping past Sunday midnight', () => {
    const regular = [
      { day: 1, open: '0900', close: '1700' },
      { day: 7, open: '2200', close: '+0200' },
    ];
    expect(weekIntervals(regular)).toEqual([
      [0, 120],
      [540, 1020],
      [6 * 1440 + 1320, 10080],
    ]);
    expect(multirangeLiteral(weekIntervals(regular))).toBe('{[0,120),[540,1020),[9960,10080)}');
    expect(isOpenAt(weekIntervals(regular), 60)).toBe(true); // Monday 01:00, from Sunday night
    expect(isOpenAt(weekIntervals(regular), 1020)).toBe(false); // closing time is closed
  });

  it('groups days with the same hours for display', () => {
    const weekdays = [1, 2, 3, 4, 5].map((day) => ({ day, open: '0800', close: '1800' }));
    expect(hoursDisplay([...weekdays, { day: 6, open: '1000', close: '1400' }])).toBe(
      'Mon-Fri 08:00-18:00; Sat 10:00-14:00',
    );
  });

  it('reads the local minute of the week in a time zone', () => {
    const tuesdayNoonUtc = new Date(Date.UTC(2025, 5, 17, 12, 0));
    expect(localMinuteOfWeek(tuesdayNoonUtc, 'UTC')).toBe(1440 + 720);
    expect(localMinuteOfWeek(tuesdayNoonUtc, 'Asia/Tokyo')).toBe(1440 + 21 * 60);
    expect(localMinuteOfWeek(tuesdayNoonUtc, null)).toBe(1440 + 720);
  });
});
