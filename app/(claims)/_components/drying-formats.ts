// The drying record's dates and figures as the UK writes them.
// Made on first use, like the status view's formats: loading a time zone's rules is a long task on a slow phone.
let formats: { day: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat; number: Intl.NumberFormat } | undefined;
export const ukFormats = () =>
  (formats ??= {
    day: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'Europe/London' }),
    dateTime: new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/London',
    }),
    number: new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 }),
  });
export const day = (iso: string) => ukFormats().day.format(new Date(iso));
export const figure = (value: number) => ukFormats().number.format(value);
