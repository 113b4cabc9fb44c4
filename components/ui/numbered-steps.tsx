/** Steps in order, each a card with its number, title and text (a claim, a service, an instruction). */
export function NumberedSteps({ steps, className = 'mt-8' }: { steps: readonly { title: string; text: string }[]; className?: string }) {
  return (
    <ol className={`grid gap-6 md:grid-cols-2 lg:grid-cols-4 ${className}`}>
      {steps.map((step, index) => (
        <li key={step.title} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <span
            aria-hidden="true"
            className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-brand-800 text-lg font-bold text-white"
          >
            {index + 1}
          </span>
          <h3 className="mt-4 text-xl font-bold text-brand-900">{step.title}</h3>
          <p className="mt-2 leading-relaxed text-slate-700">{step.text}</p>
        </li>
      ))}
    </ol>
  );
}
