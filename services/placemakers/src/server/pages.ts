import { html, page } from '@cairn/kit';

export function refusalPage(title: string, message: string): string {
  return page(
    title,
    html`<h1>${title}</h1><p class="error" role="alert">${message}</p>
<p class="note">The place editor opens from the app you use: go back to it and choose to edit places again.</p>`,
  );
}
