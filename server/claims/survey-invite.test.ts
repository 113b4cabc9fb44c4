// The survey visit's invite read back with an iCalendar parser (ical.js), as a calendar reads it.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { surveyInvite } from '@/server/claims/survey-invite';
import type { Appointment } from '@/server/claims/survey-booking';

const appointment: Appointment = {
  id: 7,
  uid: 'b3f65f0e-76dd-4400-9701-d170cc014746@survey.homecare-web.invalid',
  date: '2026-10-26',
  window: 'am',
  sequence: 0,
  words: 'Monday 26 October, morning, 8am to 1pm',
};

function read(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent('vevent')!;
  return { calendar, event, fields: new ICAL.Event(event) };
}

describe('the survey visit’s invite', () => {
  it('is a REQUEST from the company to the homeowner with the appointment’s UID, SEQUENCE and window in UTC', () => {
    const { calendar, event, fields } = read(
      surveyInvite(appointment, { reference: 'HC-2026-ABCD', attendee: 'Agnieszka.Wójcik@example.com' }),
    );
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(fields.uid).toBe(appointment.uid);
    expect(fields.sequence).toBe(0);
    // 08:00 on the London clock on the Monday after the clocks went back: 08:00 UTC.
    expect(fields.startDate.toJSDate().toISOString()).toBe('2026-10-26T08:00:00.000Z');
    expect(fields.endDate.toJSDate().toISOString()).toBe('2026-10-26T13:00:00.000Z');
    expect(String(event.getFirstPropertyValue('organizer')).replace(/^mailto:/i, 'mailto:')).toBe(`mailto:${business.email}`);
    expect(fields.attendees.map((attendee) => String(attendee.getFirstValue()).replace(/^mailto:/i, 'mailto:'))).toEqual([
      'mailto:Agnieszka.Wójcik@example.com',
    ]);
    // The claim's reference and the company's phone, nothing else of the claim.
    expect(fields.description).toContain('HC-2026-ABCD');
    expect(fields.description).toContain(business.phone.display);
    expect(fields.description).toContain(appointment.words);
  });

  it('a move keeps the UID with a higher SEQUENCE; a cancel is METHOD:CANCEL', () => {
    const moved = read(
      surveyInvite(
        { ...appointment, sequence: 1, window: 'pm', words: 'Monday 26 October, afternoon, 12pm to 5pm' },
        { reference: 'HC-2026-ABCD', attendee: 'a@example.com' },
      ),
    );
    expect(moved.fields.uid).toBe(appointment.uid);
    expect(moved.fields.sequence).toBe(1);
    expect(moved.fields.startDate.toJSDate().toISOString()).toBe('2026-10-26T12:00:00.000Z');
    const cancelled = read(
      surveyInvite({ ...appointment, sequence: 2 }, { reference: 'HC-2026-ABCD', attendee: 'a@example.com', method: 'CANCEL' }),
    );
    expect(cancelled.calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(cancelled.fields.sequence).toBe(2);
  });
});
