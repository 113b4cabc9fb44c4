import 'server-only';
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod } from 'ical-generator';
import { business } from '@/content/business';
import { windowSpan } from '@/lib/survey-windows';
import type { Appointment } from '@/server/claims/survey-booking';

/**
 * A survey visit as an iCalendar invite (ical-generator): METHOD:REQUEST from the company (ORGANIZER)
 * to the homeowner (ATTENDEE), or METHOD:CANCEL; the appointment's UID for its whole life and its
 * SEQUENCE; the window's times in UTC; the claim's reference and the company's phone in the description
 * and nothing else of the claim.
 */
export function surveyInvite(
  appointment: Appointment,
  { reference, attendee, method = 'REQUEST' }: { reference: string; attendee: string; method?: 'REQUEST' | 'CANCEL' },
): string {
  const calendar = ical({
    prodId: { company: business.name, product: 'Survey visits', language: 'EN' },
    method: method === 'REQUEST' ? ICalCalendarMethod.REQUEST : ICalCalendarMethod.CANCEL,
  });
  const { startMs, endMs } = windowSpan(appointment, business.openingHours);
  calendar.createEvent({
    id: appointment.uid,
    sequence: appointment.sequence,
    stamp: new Date(),
    start: new Date(startMs),
    end: new Date(endMs),
    summary: `${business.name}: survey visit`,
    description: `Survey visit for claim ${reference}, ${appointment.words}: the surveyor arrives within this window. To move or cancel it, call ${business.phone.display}.`,
    organizer: { name: business.name, email: business.email },
    attendees: [{ email: attendee, role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.NEEDSACTION, rsvp: false }],
  });
  return calendar.toString();
}
