import type { ComponentChildren } from 'preact';
import { hrefOf, navigate, type Route } from '../router.ts';

export function Link(props: { to: Route; children: ComponentChildren; current?: boolean; class?: string }) {
  return (
    <a
      href={hrefOf(props.to)}
      class={props.class}
      aria-current={props.current ? 'page' : undefined}
      onClick={(e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey) return;
        e.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}
