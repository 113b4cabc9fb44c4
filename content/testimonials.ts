type Testimonial = {
  quote: string;
  customerName: string;
  town: string;
};

/** Customer testimonials on the home page. Placeholder names: replace with real, consented reviews before launch. */
export const testimonials: readonly Testimonial[] = [
  {
    quote:
      'A pipe burst in the loft while we were away and the ceilings in two bedrooms came down. They had driers in the same day, dealt with the loss adjuster for us and the rooms were replastered and painted within five weeks. You would never know it happened.',
    customerName: 'Margaret D.',
    town: 'Cumbernauld',
  },
  {
    quote:
      'After the January storm took half the ridge tiles off, the surveyor was out the next morning and the roof was made watertight before the next lot of rain. Polite, tidy tradesmen and they kept us updated every step of the claim.',
    customerName: 'Graham and Fiona R.',
    town: 'Kirkintilloch',
  },
  {
    quote:
      'A car went through our garden wall and front bay window. They boarded up that night, rebuilt the wall in matching stone and fitted the new window without any fuss. Our insurer paid them directly, so all we paid was the excess.',
    customerName: 'Aamir S.',
    town: 'East Kilbride',
  },
];
