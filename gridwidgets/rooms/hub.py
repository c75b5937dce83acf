"""The rooms as a JupyterHub service: the hub's login instead of names typed
and teacher tokens (``python -m gridwidgets classroom --rooms --hub``, see
``docs/jupyterhub.md#the-rooms-on-jupyterhub``).

The hub tells a service where it is and who it is through its environment
(:func:`HubSettings.from_env`): the hub starts a *managed* service with these
variables set; a teacher who runs the rooms as an *external* service sets them
(``JUPYTERHUB_API_TOKEN``, ``JUPYTERHUB_API_URL``, ``JUPYTERHUB_SERVICE_PREFIX``,
``JUPYTERHUB_SERVICE_URL``, ``JUPYTERHUB_CLIENT_ID``,
``JUPYTERHUB_OAUTH_CALLBACK_URL``).

A browser is logged in by the hub's OAuth (:class:`HubLogin`, over
``jupyterhub.services.auth.HubOAuth``, as JupyterHub's own service examples
do): a page opened without the service's session cookie is sent to the hub's
login; the hub sends it back to ``<prefix>oauth_callback`` with a code, which
the service exchanges for the user's token (kept on the server, never in a
page or a cookie). The browser gets an HTTP-only session cookie holding only
a random id. The OAuth identify model carries the user's ``name``, ``admin``
and ``groups``: the teacher is a member of the teachers' group
(:attr:`HubSettings.teacher_group`) or a hub admin.

:func:`hub_roster` lists the hub's users (or a group's members) for a class list.

Needs the ``hub`` extra: ``pip install 'gridwidgets[hub]'`` (JupyterHub); it
is imported only when a hub is used (never by ``import gridwidgets``).
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

__all__ = ["HUB_SESSION_COOKIE", "HubLogin", "HubSettings", "HubUser", "hub_roster", "load_hub_roster",
           "need_jupyterhub"]

#: the service's session cookie (HTTP-only, SameSite=Lax, path: the service's prefix): a random id only
HUB_SESSION_COOKIE = "gw-hub-session"
#: hours a hub session lasts in the service (the hub's token is asked again every :data:`RECHECK_SECONDS`)
HUB_SESSION_HOURS = 12
#: seconds between two checks, with the hub, that a session's token still holds (a hub logout ends it then)
RECHECK_SECONDS = 60.0
#: the environment variables the service needs (the hub sets them for a managed service)
REQUIRED_ENV = ("JUPYTERHUB_API_TOKEN", "JUPYTERHUB_API_URL", "JUPYTERHUB_SERVICE_PREFIX", "JUPYTERHUB_SERVICE_URL",
                "JUPYTERHUB_CLIENT_ID", "JUPYTERHUB_OAUTH_CALLBACK_URL")


def need_jupyterhub() -> Any:
    """The ``jupyterhub.services.auth`` module.

    Raises:
        ImportError: without the ``hub`` extra (the message says what to install).
    """
    try:
        from jupyterhub.services import auth
    except ImportError:
        raise ImportError("the rooms as a JupyterHub service need JupyterHub: pip install 'gridwidgets[hub]'") from None
    return auth


@dataclass(frozen=True)
class HubUser:
    """A hub user as the service sees them (from the hub's OAuth identify model).

    Attributes:
        name: the hub user name (a student's display name and student id).
        is_teacher: a member of the teachers' group, or a hub admin.
        admin: a hub admin.
        groups: the user's hub groups.
    """

    name: str
    is_teacher: bool
    admin: bool = False
    groups: tuple[str, ...] = ()


@dataclass(frozen=True)
class HubSettings:
    """Where the service is and whom it lets in.

    Attributes:
        prefix: the service's path on the hub's proxy, with slashes at both ends
            (``JUPYTERHUB_SERVICE_PREFIX``: ``/services/rooms/``; the proxy does not strip it).
        service_url: where the service listens (``JUPYTERHUB_SERVICE_URL``: ``http://127.0.0.1:10101``).
        teacher_group: the hub group whose members are teachers (hub admins are too).
        students_group: if given, only its members (and teachers) may open the students' pages.
        public_url: the address students open (``JUPYTERHUB_PUBLIC_URL`` if the hub knows it, else
            the prefix alone: the projector shows it).
    """

    prefix: str
    service_url: str
    teacher_group: str = "teachers"
    students_group: str | None = None
    public_url: str = ""

    @property
    def root(self) -> str:
        """The prefix without its last slash (ASGI's ``root_path``): ``/services/rooms``."""
        return self.prefix.rstrip("/")

    @property
    def host(self) -> str:
        """The address the service listens on (from :attr:`service_url`)."""
        return urlsplit(self.service_url).hostname or "127.0.0.1"

    @property
    def port(self) -> int:
        """The port the service listens on (from :attr:`service_url`)."""
        return urlsplit(self.service_url).port or 80

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *, teacher_group: str = "teachers",
                 students_group: str | None = None) -> HubSettings:
        """The settings from the environment the hub gives a service (:data:`REQUIRED_ENV`).

        Raises:
            ValueError: a variable missing (the message names them), or a prefix
                that does not start with ``/``.
        """
        env = os.environ if environ is None else environ
        missing = [k for k in REQUIRED_ENV if not env.get(k)]
        if missing:
            raise ValueError("--hub needs the environment JupyterHub gives a service; missing: " + ", ".join(missing)
                             + " (a managed service gets them from the hub; for an external one, see "
                             "docs/jupyterhub.md#the-rooms-on-jupyterhub)")
        prefix = env["JUPYTERHUB_SERVICE_PREFIX"]
        if not prefix.startswith("/"):
            raise ValueError(f"JUPYTERHUB_SERVICE_PREFIX must be a path starting with /, got {prefix[:40]!r}")
        if not prefix.endswith("/"):
            prefix += "/"
        if not teacher_group:
            raise ValueError("the teachers' group cannot be empty")
        public = env.get("JUPYTERHUB_PUBLIC_URL") or prefix
        return cls(prefix, env["JUPYTERHUB_SERVICE_URL"], teacher_group, students_group or None, public)


@dataclass
class _Session:
    user: HubUser
    token: str = field(repr=False)
    expires: float
    checked: float
    #: the rooms' teacher session for a teacher (:meth:`gridwidgets.rooms.Rooms.open_session`), else None
    teacher_session: str | None = field(default=None, repr=False)


class HubLogin:
    """The hub's OAuth for the rooms' server, with the sessions kept on the
    server (``{session id: user, token}``; the browser holds the id only).

    The calls that ask the hub (:meth:`finish`, :meth:`recheck`, :func:`hub_roster`)
    block: the server runs them in an executor.

    Args:
        settings: the service's :class:`HubSettings`.
        auth: a ``jupyterhub.services.auth.HubOAuth`` (default: one made from
            the environment; tests pass their own).

    Raises:
        ImportError: without the ``hub`` extra.
    """

    def __init__(self, settings: HubSettings, auth: Any = None) -> None:
        if auth is None:
            auth = need_jupyterhub().HubOAuth(cache_max_age=int(RECHECK_SECONDS))
        self.settings, self.auth = settings, auth
        self._sessions: dict[str, _Session] = {}
        self._lock = threading.Lock()

    # -- the login's steps ----------------------------------------------------------------------
    def start(self, next_url: str) -> tuple[str, str, str]:
        """Begin a login that comes back to ``next_url`` (a path under the prefix;
        anything else comes back to the prefix): ``(the hub's login address,
        the state cookie's name, its value)``. Each login has a cookie of its
        own (two tabs logging in at once do not undo each other). With PKCE."""
        if not next_url.startswith(self.settings.prefix) and next_url != self.settings.root:
            next_url = self.settings.prefix
        verifier, challenge, method = self.auth.generate_pkce_code_challenge()
        state = self.auth.generate_state(next_url=next_url, code_verifier=verifier)
        url = self.auth.login_url + "&" + urlencode({"state": state, "code_challenge": challenge,
                                                     "code_challenge_method": method})
        return url, self.state_cookie(state), state

    def state_cookie(self, state: str) -> str:
        """The name of the cookie that holds login ``state`` (the hub's name for it, plus the state's start)."""
        base = str(self.auth.state_cookie_name).removeprefix("__Host-")
        return f"{base}-{''.join(ch for ch in state[:8] if ch.isalnum())}"

    def finish(self, code: str, state: str) -> tuple[str, str, HubUser]:
        """End a login (the callback's ``code`` and ``state``, the state cookie
        already checked by the caller): ``(session id, next address, user)``.
        Blocks (asks the hub).

        Raises:
            PermissionError: the hub refused the code, or the user may not
                open this service (not in :attr:`HubSettings.students_group`
                nor a teacher).
        """
        next_url = self.auth.get_next_url(state) or self.settings.prefix
        verifier = self.auth.get_code_verifier(state)
        self.auth.clear_oauth_state(state)
        try:
            token = self.auth.token_for_code(code, code_verifier=verifier)
            model = self.auth.user_for_token(token, use_cache=False)
        except Exception as exc:  # the hub's HTTPError: a stale or forged code
            raise PermissionError(f"the hub did not confirm this login ({type(exc).__name__})") from None
        user = self.user_of_model(model)
        if user is None or not self.has_access(model):
            raise PermissionError("the hub did not give this login access to this service")
        if not self.may_enter(user):
            raise PermissionError(f"You are logged in to the hub as {user.name}, who is not in the hub group "
                                  f"{self.settings.students_group!r} this class is for. If you are a student of "
                                  "this class, ask your teacher to add you to it; if this is not your login, log "
                                  "out of the hub and log in as yourself")
        sid = secrets.token_urlsafe(32)
        now = time.time()
        with self._lock:
            self._purge(now)
            self._sessions[sid] = _Session(user, token, now + HUB_SESSION_HOURS * 3600, now)
        if not next_url.startswith(self.settings.prefix):
            next_url = self.settings.prefix
        return sid, next_url, user

    def user_of_model(self, model: Any) -> HubUser | None:
        """The :class:`HubUser` of a hub identify model (``name``, ``admin``, ``groups``), or None."""
        if not isinstance(model, dict) or model.get("kind", "user") != "user" or not model.get("name"):
            return None
        groups = tuple(str(g) for g in model.get("groups") or ())
        admin = bool(model.get("admin"))
        return HubUser(str(model["name"]), admin or self.settings.teacher_group in groups, admin, groups)

    def has_access(self, model: Any) -> bool:
        """Whether the token of identify ``model`` carries the service's access scope
        (``access:services!service=NAME``, from ``JUPYTERHUB_OAUTH_ACCESS_SCOPES``;
        the hub checks it too before it lets a login through)."""
        required = getattr(self.auth, "access_scopes", None)
        if not required:
            return True
        try:
            return bool(self.auth.check_scopes(required, model))
        except (KeyError, TypeError):
            return False

    @property
    def logout_url(self) -> str:
        """The hub's logout page (``/hub/logout``, after the hub's base URL)."""
        return f"{getattr(self.auth, 'hub_host', '') or ''}{getattr(self.auth, 'hub_prefix', '/hub/') or '/hub/'}logout"

    def may_enter(self, user: HubUser) -> bool:
        """Whether ``user`` may open the service: a teacher, or any user (or, with
        :attr:`HubSettings.students_group`, that group's members)."""
        group = self.settings.students_group
        return user.is_teacher or group is None or group in user.groups

    # -- sessions -------------------------------------------------------------------------------
    def session(self, sid: str | None) -> _Session | None:
        """The live session of id ``sid`` (from the cookie), or None."""
        if not sid or len(sid) > 100:
            return None
        with self._lock:
            s = self._sessions.get(sid)
            if s is not None and s.expires < time.time():
                del self._sessions[sid]
                return None
            return s

    def user(self, sid: str | None) -> HubUser | None:
        """The hub user of session ``sid``, or None."""
        s = self.session(sid)
        return s.user if s is not None else None

    def set_teacher_session(self, sid: str, teacher_session: str) -> None:
        """Note the rooms' teacher session of a teacher's hub session."""
        with self._lock:
            if sid in self._sessions:
                self._sessions[sid].teacher_session = teacher_session

    def needs_recheck(self, sid: str) -> bool:
        """Whether session ``sid``'s token was last checked with the hub more than :data:`RECHECK_SECONDS` ago."""
        s = self.session(sid)
        return s is not None and time.time() - s.checked > RECHECK_SECONDS

    def recheck(self, sid: str) -> bool:
        """Ask the hub whether session ``sid``'s token still holds (a hub logout
        revokes it); end the session if not. Blocks (asks the hub)."""
        s = self.session(sid)
        if s is None:
            return False
        try:
            model = self.auth.user_for_token(s.token, use_cache=False)
        except Exception:  # the hub is down: keep the session until it answers
            return True
        user = self.user_of_model(model)
        with self._lock:
            if (user is None or user.name != s.user.name or not self.may_enter(user)
                    or not self.has_access(model)):
                self._sessions.pop(sid, None)
                return False
            s.checked = time.time()
            if user != s.user:
                s.user = user
                if not user.is_teacher:
                    s.teacher_session = None
        return True

    def end(self, sid: str) -> None:
        """End session ``sid`` (its token stays the hub's)."""
        with self._lock:
            self._sessions.pop(sid, None)

    def _purge(self, now: float) -> None:
        for sid in [k for k, s in self._sessions.items() if s.expires < now]:
            del self._sessions[sid]


def hub_roster(group: str | None = None, *, api_url: str | None = None, token: str | None = None,
               timeout: float = 10.0) -> list[tuple[str, str]]:
    """The hub's users, or the members of ``group``, as ``(display name, id)``
    pairs sorted by name; both are the hub user name (a hub has no other
    display name), for a room's class list. Asks the hub's REST API with the
    service's own token; blocks.

    Args:
        group: a hub group's name (None: every hub user).
        api_url: the hub's API (default ``JUPYTERHUB_API_URL``: ``http://127.0.0.1:8081/hub/api``).
        token: the service's token (default ``JUPYTERHUB_API_TOKEN``). Its role needs the
            scopes ``list:users`` and ``read:users:name`` (every user), or ``read:groups``
            (a group's members).

    Raises:
        ValueError: no API address or token.
        PermissionError: the hub refused (the token lacks a scope named above).
        LookupError: no such group.
        OSError: the hub did not answer.
    """
    api_url = (api_url or os.environ.get("JUPYTERHUB_API_URL", "")).rstrip("/")
    token = token or os.environ.get("JUPYTERHUB_API_TOKEN", "")
    if not api_url or not token:
        raise ValueError("hub_roster needs the hub's API address and a token (JUPYTERHUB_API_URL, "
                         "JUPYTERHUB_API_TOKEN)")

    def get(path: str) -> Any:
        request = urllib.request.Request(api_url + path, headers={"Authorization": f"token {token}",
                                                                  "Accept": "application/jupyterhub-pagination+json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                return json.loads(r.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            if exc.code == 403:
                raise PermissionError(f"the hub refused {path.split('?')[0]} (403): give the service's role the "
                                      "scopes list:users, read:users:name and read:groups") from None
            if exc.code == 404:
                raise LookupError(f"the hub has no {path.split('?')[0].rsplit('/', 1)[-1]!r}") from None
            raise

    if group is not None:
        names = list(get(f"/groups/{quote(group, safe='')}").get("users") or [])
    else:
        names, offset = [], 0
        while True:
            page = get(f"/users?offset={offset}&limit=200")
            items = page.get("items", []) if isinstance(page, dict) else page
            names += [u["name"] for u in items if isinstance(u, dict) and u.get("name")]
            nxt = page.get("_pagination", {}).get("next") if isinstance(page, dict) else None
            if not nxt or not items:
                break
            offset = int(nxt.get("offset", offset + len(items)))
    return [(n, n) for n in sorted(set(names), key=str.casefold)]


def load_hub_roster(rooms: Any, settings: HubSettings, **options: Any) -> str:
    """Make the hub's students the class list of ``rooms``
    (:meth:`~gridwidgets.rooms.Rooms.set_roster`, source ``"hub"``): the
    members of :attr:`HubSettings.students_group` (every hub user if none),
    less the teachers' group's members; each entry's name and id are the hub
    user name, which is what a seat under the hub takes (so the teacher's
    page shows who has come and who has not). Blocks (the hub's REST API).

    Args:
        options: ``api_url``, ``token``, ``timeout`` as for :func:`hub_roster`.

    Returns:
        one line saying what was loaded, for the server's log and the teacher's page.

    Raises:
        PermissionError, LookupError, OSError, ValueError: as :func:`hub_roster`
            (the class list unchanged).
    """
    students = hub_roster(settings.students_group, **options)
    try:
        teachers = {sid for _, sid in hub_roster(settings.teacher_group, **options)}
    except LookupError:  # no teachers' group on this hub: the admins teach
        teachers = set()
    entries = [(name, sid) for name, sid in students if sid not in teachers]
    rooms.set_roster(entries, "hub")
    whose = f"the hub group {settings.students_group!r}" if settings.students_group else "the hub's users"
    return f"{len(entries)} students from {whose}"
