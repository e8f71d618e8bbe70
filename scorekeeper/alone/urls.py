from django.urls import path

from scorekeeper.alone import views

app_name = "alone"

urlpatterns = [
    path("alone/", views.alone, name="alone"),
    path("alone/hand-over/", views.hand_over, name="hand_over"),
]
