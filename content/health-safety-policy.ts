/**
 * The Health and Safety Policy document (public/documents/health-and-safety-policy.pdf), section by
 * section, as HTML with the company's name (already HTML-escaped) filled in. `npm run
 * generate:policy-pdf` prints it; rerun it after editing the text here or the facts in business.ts.
 */
type PolicySection = { title: string; body: string };

/** Section 1, the only one that names the company. */
function statementOfIntent(name: string): PolicySection {
  return {
    title: '1. Statement of intent',
    body: `<p>${name} (“the Company”) carries out insurance repair, reinstatement and home maintenance work in occupied domestic
        properties across Glasgow and the central belt of Scotland. The Company recognises its duties under the Health and Safety at
        Work etc. Act 1974, the Management of Health and Safety at Work Regulations 1999, the Construction (Design and Management)
        Regulations 2015 and associated legislation.</p>
        <p>It is our policy to provide and maintain, so far as is reasonably practicable, safe and healthy working conditions,
        equipment and systems of work for all our employees, and to ensure that our work does not put our customers, their families or
        members of the public at risk. We regard health and safety as a management responsibility equal to that of any other business
        function, and we will provide the information, instruction, training and supervision needed to achieve it.</p>`,
  };
}

/** Sections 2 to 10: the same words whatever the company's name. */
const standingSections: readonly PolicySection[] = [
  {
    title: '2. Organisation and responsibilities',
    body: `<p><strong>Managing Director.</strong> Holds overall responsibility for health and safety, makes sure adequate resources are
        provided, and reviews this policy at least once a year.</p>
        <p><strong>Contracts Manager.</strong> Makes sure every job is surveyed and risk assessed before work starts, that method
        statements are prepared for higher-risk activities, and that site conditions are checked by regular inspection.</p>
        <p><strong>Surveyors and supervisors.</strong> Identify hazards at survey (including suspected asbestos, structural damage,
        electrical and gas hazards after fire or water damage), brief operatives before work starts, and stop work where it is unsafe.</p>
        <p><strong>All employees.</strong> Take reasonable care of their own safety and that of others, follow safe systems of work,
        use the protective equipment provided, and report accidents, near misses and hazards without delay.</p>
        <p>The Company takes competent health and safety advice from an external consultant, as required by Regulation 7 of the
        Management of Health and Safety at Work Regulations 1999.</p>`,
  },
  {
    title: '3. Risk assessment and safe systems of work',
    body: `<p>A written risk assessment is completed for every job and reviewed when the work or conditions change. Method statements
        are prepared for work at height, structural work, strip-out of fire-damaged materials, and any task the risk assessment
        identifies as higher risk. Findings are explained to the operatives carrying out the work before they start.</p>
        <p>Because we work in people’s homes, our assessments consider the occupants, including children, older people and pets,
        and we agree with the householder how rooms in use will be separated from the work area, how access will be kept clear and
        how the property will be left safe at the end of each day.</p>`,
  },
  {
    title: '4. Personal protective equipment',
    body: `<p>The Company provides suitable personal protective equipment free of charge, including safety footwear, high-visibility
        clothing, gloves, eye and hearing protection, hard hats where required, and face-fit-tested respiratory protective equipment for
        work involving dust, soot or mould. Employees are trained in its correct use, storage and maintenance, and damaged equipment is
        replaced immediately.</p>`,
  },
  {
    title: '5. Training and competence',
    body: `<p>All new employees receive a health and safety induction. Tradesmen hold the appropriate CSCS card for their trade, and the
        Company provides refresher training in asbestos awareness, working at height, manual handling, safe use of power tools, first
        aid and fire safety. Toolbox talks are delivered monthly. Gas work is carried out only by Gas Safe registered engineers and
        electrical work only by qualified electricians working to BS 7671.</p>`,
  },
  {
    title: '6. Hazardous substances and asbestos',
    body: `<p>Substances hazardous to health are assessed under the COSHH Regulations 2002, and safety data sheets are held for every
        product we use. In properties built before 2000, no intrusive work starts until the presence of asbestos has been assessed.
        Where asbestos is suspected, work stops and a licensed contractor or accredited surveyor is appointed as the Control of
        Asbestos Regulations 2012 require.</p>`,
  },
  {
    title: '7. Work equipment, access and vehicles',
    body: `<p>Ladders, towers, scaffolding and power tools are inspected before use and recorded where the law requires. Portable
        electrical equipment is tested at regular intervals. Company vans are maintained to a planned schedule, and drivers hold a valid
        licence and carry out daily vehicle checks.</p>`,
  },
  {
    title: '8. Waste and the environment',
    body: `<p>The Company is registered with the Scottish Environment Protection Agency as a carrier of waste. Waste from our sites is
        segregated, removed promptly and taken only to licensed facilities, with a waste transfer note for each load.</p>`,
  },
  {
    title: '9. Accidents, first aid and emergencies',
    body: `<p>Every van carries a first-aid kit and a fire extinguisher, and every team includes a trained first aider. All accidents
        and near misses are recorded and investigated so that lessons are learned, and reportable incidents are notified to the Health
        and Safety Executive under RIDDOR 2013.</p>`,
  },
  {
    title: '10. Consultation, monitoring and review',
    body: `<p>Employees are consulted on matters affecting their health and safety through toolbox talks and regular team meetings.
        Managers carry out site inspections and record their findings. The Company’s arrangements are independently audited each year
        under the Safe Contractor scheme, and this policy is reviewed annually or sooner if legislation or our work changes.</p>`,
  },
];

export function policySections(name: string): PolicySection[] {
  return [statementOfIntent(name), ...standingSections];
}
