"""The admin's login is a signed cookie, not a database row: a backup copy holds no session that
logs anyone in, and rows kept from before the change are removed by the guards' migration."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone


@pytest.mark.django_db
def test_the_admin_stays_logged_in_and_the_database_holds_no_session():
    User.objects.create_superuser("owner", password="a long owner password")
    admin = Client()
    page = admin.post("/admin/login/?next=/admin/", {"username": "owner", "password": "a long owner password"})
    assert page.status_code == 302
    assert admin.get("/admin/").status_code == 200
    assert Session.objects.count() == 0  # nothing a copy of the database could replay
    assert Client().get("/admin/").status_code == 302  # another client is sent to the login


@pytest.mark.django_db
def test_a_changed_password_ends_the_login_held_in_the_cookie():
    owner = User.objects.create_superuser("owner", password="a long owner password")
    admin = Client()
    admin.post("/admin/login/?next=/admin/", {"username": "owner", "password": "a long owner password"})
    owner.set_password("another long password")
    owner.save()
    assert admin.get("/admin/").status_code == 302


@pytest.mark.django_db
def test_the_migration_removes_the_sessions_the_database_kept():
    old = import_module("django.contrib.sessions.backends.db").SessionStore()
    old["_auth_user_id"] = "1"
    old.create()
    assert Session.objects.filter(expire_date__gt=timezone.now()).count() == 1
    migration = import_module("scorekeeper.guards.migrations.0002_no_sessions_in_the_database")
    migration.forget_stored_sessions(apps, None)
    assert Session.objects.count() == 0
