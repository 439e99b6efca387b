"""A line of chat, to everyone or whispered."""

from django.urls import path

from rolls.chat import views

urlpatterns = [path("chat/", views.say_line, name="say_line")]
